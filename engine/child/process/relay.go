package process

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/seed-e4e525a6/baton/engine/agent"
)

// The child's side of detaching. A detachable child (its spec names a
// Home) numbers every line it sends and appends it to its log before
// sending it to the baton listening, if any: first the one that started
// it (its stdout), later one that attached on its socket. When that baton
// goes (its pipe breaks, its input ends without an abort, its connection
// drops) the child carries on within its time limit: its lines go to the
// log only, and its questions wait for a baton to answer them. A baton
// that attaches says which line it has last taken; the child replays the
// log after it, says where the replay ends, and asks its open questions
// again.

// relay sends a detachable child's lines: to its log, and to the baton
// listening now.
type relay struct {
	mu   sync.Mutex
	seq  int64
	log  *os.File
	peer io.Writer // nil while no baton listens
}

// logName is a child's log in its Home.
const logName = "up.jsonl"

// openRelay opens the child's log in home, for lines it sends to peer.
func openRelay(home string, peer io.Writer) (*relay, error) {
	log, err := os.OpenFile(filepath.Join(home, logName), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the child's log: %w", err)
	}
	return &relay{log: log, peer: peer}, nil
}

// write numbers v (an up line), logs it and sends it to the baton
// listening; only a line the log could not keep is an error, since a
// later baton reads the log.
func (r *relay) write(v any) error {
	u, ok := v.(up)
	if !ok {
		return fmt.Errorf("encode: %T is not a line a child sends", v)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	u.Seq = r.seq
	data, err := json.Marshal(u)
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	data = append(data, '\n')
	if _, err := r.log.Write(data); err != nil {
		return fmt.Errorf("log: %w", err)
	}
	if r.peer != nil {
		if _, err := r.peer.Write(data); err != nil {
			r.peer = nil // baton went; a later one attaches
		}
	}
	return nil
}

// drop stops sending to peer, if it is the baton listening.
func (r *relay) drop(peer io.Writer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.peer == peer {
		r.peer = nil
	}
}

// attach makes peer the baton listening: it sends the logged lines after
// from, then the line that ends the replay, then the questions open. They
// are read once no line can be written meanwhile: a question whose line
// was logged is open by then (it is noted before it is sent), and one
// noted but not yet sent reaches peer twice, which baton answers once.
func (r *relay) attach(peer io.Writer, from int64, open func() []question) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, err := os.Open(r.log.Name())
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	lines := newLineReader(f)
	for {
		line, err := lines.next()
		if err != nil {
			break // the log ends, a torn last line included
		}
		var head struct {
			Seq int64 `json:"seq"`
		}
		if json.Unmarshal(line, &head) != nil || head.Seq <= from {
			continue
		}
		if _, err := peer.Write(append(line, '\n')); err != nil {
			return fmt.Errorf("replay: %w", err)
		}
	}
	send := func(u up) error {
		data, err := json.Marshal(u)
		if err != nil {
			return err
		}
		_, err = peer.Write(append(data, '\n'))
		return err
	}
	if err := send(up{Caught: r.seq}); err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	asks := open()
	for i := range asks {
		if err := send(up{Ask: &asks[i]}); err != nil {
			return fmt.Errorf("replay: %w", err)
		}
	}
	r.peer = peer
	return nil
}

// attachWait bounds how long a connection on a child's socket may take
// to name the token.
const attachWait = 10 * time.Second

// awaitBatons lets batons attach on l until l is closed: each one that
// names the token is replayed what it missed and then talks with the
// child as the baton that started it did, one at a time. The socket is
// open to every user of the machine, so a connection is heard only
// from this user, and one that says nothing holds up no other.
func (c *conn) awaitBatons(l net.Listener, token string, a *agent.Agent) {
	var one sync.Mutex
	for {
		nc, err := l.Accept()
		if err != nil {
			return
		}
		// Ends when the baton goes, or at once for a connection that
		// does not name the token within attachWait.
		go c.serveBaton(nc, token, a, &one)
	}
}

// serveBaton talks with one attached baton until it goes, once no other
// does (one).
func (c *conn) serveBaton(nc net.Conn, token string, a *agent.Agent, one *sync.Mutex) {
	defer nc.Close()
	if peerIsOurs(nc, 0) != nil {
		return
	}
	_ = nc.SetReadDeadline(time.Now().Add(attachWait))
	lines := newLineReader(nc)
	first, err := lines.next()
	var d down
	if err != nil || json.Unmarshal(first, &d) != nil || d.Attach == nil ||
		subtle.ConstantTimeCompare([]byte(d.Attach.Token), []byte(token)) != 1 {
		return // not a baton that knows this child
	}
	_ = nc.SetReadDeadline(time.Time{})
	one.Lock()
	defer one.Unlock()
	if err := c.relay.attach(nc, d.Attach.From, c.openQuestions); err != nil {
		return
	}
	defer c.relay.drop(nc)
	for {
		line, err := lines.next()
		if err != nil {
			return
		}
		c.dispatch(line, a)
	}
}

// openQuestions are the questions asked that wait for a reply.
func (c *conn) openQuestions() []question {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]question, 0, len(c.asked))
	for _, q := range c.asked {
		out = append(out, q)
	}
	return out
}
