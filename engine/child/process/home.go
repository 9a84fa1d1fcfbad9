package process

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// home is a detachable child's folder in the session's state, baton's
// side of it: where the child logs every line it sends (see relay), what
// a later baton needs to attach (the child's abstract socket, the token
// it must name, its process id) and the last line a baton took, so the
// next one replays only what nobody took.
type home struct {
	dir, socket, token string
	pid                int
	// name is the last argument the child's process was started with:
	// its id, or a spare's name (see spare.go). A process is known to
	// be the child by it (killFound).
	name string
	// stderr is the child's standard error, a file of its own so no
	// goroutine of baton's reads it for as long as the child lives.
	stderr *os.File
	// taken is the number of the last line taken, kept in tookFile as
	// it is taken.
	taken    int64
	tookFile *os.File
}

// attachInfo is what a later baton reads to attach.
type attachInfo struct {
	Socket string `json:"socket"`
	Token  string `json:"token"`
	Pid    int    `json:"pid"`
	// Name is the process's last argument ("": the child's id).
	Name string `json:"name,omitempty"`
}

// The files of a home.
const (
	attachName = "attach.json"
	takenName  = "taken"
	stderrName = "stderr.log"
)

// newHome makes the home of a child about to start, with a socket name
// and a token of its own; with stderr set, the file of its standard
// error too (a spare makes its own as it takes the child, see adopt).
// The file of the last line taken is made with the first line taken:
// each file made here is made while the child waits to start.
func newHome(dir string, stderr bool) (*home, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("make the child's folder: %w", err)
	}
	h := &home{dir: dir, socket: "baton-" + strings.ToLower(rand.Text()), token: rand.Text()}
	if !stderr {
		return h, nil
	}
	var err error
	if h.stderr, err = os.OpenFile(filepath.Join(dir, stderrName), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600); err != nil {
		return nil, fmt.Errorf("make the child's folder: %w", err)
	}
	return h, nil
}

// started closes baton's copy of the child's standard error, if it made
// it: the child process holds it now.
func (h *home) started() {
	if h.stderr != nil {
		_ = h.stderr.Close()
		h.stderr = nil
	}
}

// save writes what a later baton needs to attach to the child, pid,
// started with the last argument name.
func (h *home) save(pid int, name string) error {
	h.pid, h.name = pid, name
	data, err := json.Marshal(attachInfo{Socket: h.socket, Token: h.token, Pid: pid, Name: name})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(h.dir, attachName), data, 0o600); err != nil {
		return fmt.Errorf("save how to attach to the child: %w", err)
	}
	return nil
}

// openHome reads the home a baton before this one made: how to attach to
// its child and the last line taken.
func openHome(dir string) (*home, error) {
	data, err := os.ReadFile(filepath.Join(dir, attachName))
	if err != nil {
		return nil, fmt.Errorf("find the child again: %w", err)
	}
	var info attachInfo
	if err := json.Unmarshal(data, &info); err != nil || info.Socket == "" || info.Token == "" {
		return nil, fmt.Errorf("find the child again: %s is damaged", filepath.Join(dir, attachName))
	}
	h := &home{dir: dir, socket: info.Socket, token: info.Token, pid: info.Pid, name: info.Name}
	if h.tookFile, err = os.OpenFile(filepath.Join(dir, takenName), os.O_CREATE|os.O_RDWR, 0o600); err != nil {
		return nil, fmt.Errorf("find the child again: %w", err)
	}
	buf := make([]byte, 32)
	n, _ := h.tookFile.ReadAt(buf, 0)
	h.taken, _ = strconv.ParseInt(strings.TrimSpace(string(buf[:n])), 10, 64)
	return h, nil
}

// took notes that line seq was taken.
func (h *home) took(seq int64) {
	if seq <= h.taken {
		return
	}
	h.taken = seq
	if h.tookFile == nil {
		f, err := os.OpenFile(filepath.Join(h.dir, takenName), os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o600)
		if err != nil {
			return // a later baton replays what it cannot know was taken
		}
		h.tookFile = f
	}
	// Fixed width, written in place: one write a line.
	_, _ = h.tookFile.WriteAt(fmt.Appendf(nil, "%020d\n", seq), 0)
}

// processName is the last argument the child's process was started
// with: the one saved, or, in a home saved without it, the child's id.
func (h *home) processName(id event.AgentID) string {
	if h.name != "" {
		return h.name
	}
	return string(id)
}

// log opens the child's log, for a baton that finds the child no longer
// running.
func (h *home) log() (*os.File, error) {
	return os.Open(filepath.Join(h.dir, logName))
}

// String is the tail of what the child wrote to its standard error.
func (h *home) String() string {
	f, err := os.Open(filepath.Join(h.dir, stderrName))
	if err != nil {
		return ""
	}
	defer f.Close()
	const most = 2 << 10
	if info, err := f.Stat(); err == nil && info.Size() > most {
		_, _ = f.Seek(info.Size()-most, io.SeekStart)
	}
	data, _ := io.ReadAll(io.LimitReader(f, most))
	return strings.ToValidUTF8(string(data), "")
}

// close closes baton's files of the home; nil is no home.
func (h *home) close() {
	if h == nil {
		return
	}
	for _, f := range []*os.File{h.stderr, h.tookFile} {
		if f != nil {
			_ = f.Close()
		}
	}
}

// tail is what a child process last wrote to its standard error.
type tail interface{ String() string }
