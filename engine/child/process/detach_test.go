package process

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// upLines reads a child's lines as a baton would, decoded.
type upLines struct {
	t     *testing.T
	lines *lineReader
}

func (u upLines) next() (up, []byte) {
	u.t.Helper()
	line, err := u.lines.next()
	if err != nil {
		u.t.Fatalf("the child's lines ended: %v", err)
	}
	var got up
	if err := json.Unmarshal(line, &got); err != nil {
		u.t.Fatalf("a line that is not JSON: %q", line)
	}
	return got, line
}

// A detachable child outlives the baton that started it: its lines are
// numbered and logged, its question waits; a connection without the
// token is told nothing; a baton that names it is replayed only what it
// had not taken, then asked the open question again, and its answer
// lets the child finish.
func TestADetachedChildWaitsForTheNextBaton(t *testing.T) {
	t.Cleanup(func() { sandbox.TagRuns("") })
	s := newServed(t, "write_file")
	s.job.Link.Hooks = nil
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if len(toolOutputs(r)) == 0 {
			w.ToolCalls(llmtest.Call{ID: "w", Name: "write_file", Args: `{"path":"later.txt","content":"after the re-attach\n"}`})
			return
		}
		w.Text("finished without the first baton")
	})
	dir := filepath.Join(t.TempDir(), "home")
	h, err := newHome(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	h.started()
	if err := h.save(os.Getpid(), ""); err != nil {
		t.Fatal(err)
	}
	h.close()
	sp := New(Options{Endpoint: srv.Endpoint()}).spec(s.job, "cdetach")
	sp.Home, sp.Socket, sp.Token = h.dir, h.socket, h.token

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	code := make(chan int, 1)
	var stderr strings.Builder
	go func() { code <- Serve(inR, outW, &stderr) }()
	if err := (&lineWriter{w: inW}).write(down{Spec: &sp}); err != nil {
		t.Fatal(err)
	}

	// The first baton takes lines until the question, then goes.
	first := upLines{t, newLineReader(outR)}
	var taken int64
	for {
		u, _ := first.next()
		if u.Seq != taken+1 {
			t.Fatalf("line %d follows line %d", u.Seq, taken)
		}
		taken = u.Seq
		if u.Ask != nil {
			break
		}
	}
	taken-- // it took every line but the question
	_ = outR.Close()
	_ = inW.Close()

	// A connection that does not name the token is told nothing.
	stranger, err := net.Dial("unix", "@"+h.socket)
	if err != nil {
		t.Fatal(err)
	}
	_ = (&lineWriter{w: stranger}).write(down{Attach: &attach{Token: "guessed", From: 0}})
	if rest, _ := io.ReadAll(stranger); len(rest) != 0 {
		t.Fatalf("a connection with the wrong token was sent %q", rest)
	}
	_ = stranger.Close()

	nc, err := net.Dial("unix", "@"+h.socket)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	next := upLines{t, newLineReader(nc)}
	baton := &lineWriter{w: nc}
	if err := baton.write(down{Attach: &attach{Token: h.token, From: taken}}); err != nil {
		t.Fatal(err)
	}
	var asked []question
	for caught := false; !caught; {
		u, line := next.next()
		switch {
		case u.Caught != 0:
			caught = true
		case u.Seq <= taken:
			t.Fatalf("replayed line %d, which the first baton took: %s", u.Seq, line)
		case u.Ask != nil:
			asked = append(asked, *u.Ask)
		}
	}
	u, _ := next.next()
	if u.Ask == nil || u.Seq != 0 || len(asked) != 1 || u.Ask.ID != asked[0].ID {
		t.Fatalf("after the replay came %+v (replayed questions %+v), want the open question again", u, asked)
	}
	// The new baton answers every question, the one asked again first,
	// until the result.
	var authorized *authorize
	for {
		if u.Ask != nil {
			if u.Ask.Authorize != nil {
				authorized = u.Ask.Authorize
			}
			if err := baton.write(down{Reply: &reply{ID: u.Ask.ID}}); err != nil {
				t.Fatal(err)
			}
		}
		if u.Result != nil {
			if u.Result.Status != event.StatusCompleted || u.Result.Text != "finished without the first baton" {
				t.Fatalf("result %+v", u.Result)
			}
			break
		}
		u, _ = next.next()
	}
	if authorized == nil || authorized.Tool != "write_file" || !strings.Contains(authorized.Preview, "after the re-attach") {
		t.Fatalf("the write was not put to the new baton with its preview: %+v", authorized)
	}
	if c := <-code; c != 0 {
		t.Fatalf("Serve = %d: %s", c, stderr.String())
	}
	if got, _ := os.ReadFile(filepath.Join(s.job.Workspace.Root(), "later.txt")); string(got) != "after the re-attach\n" {
		t.Fatalf("later.txt = %q", got)
	}

	// The log holds every line, numbered without a gap.
	log, err := os.Open(filepath.Join(dir, logName))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	sc := bufio.NewScanner(log)
	sc.Buffer(nil, maxLine)
	var n int64
	for sc.Scan() {
		var u up
		if err := json.Unmarshal(sc.Bytes(), &u); err != nil || u.Seq != n+1 {
			t.Fatalf("log line %d: %s", n+1, sc.Bytes())
		}
		n++
	}
	if n <= taken+1 {
		t.Fatalf("the log holds %d lines", n)
	}
}

// blockingAuthorizer tells asked of its first question and holds every
// question until its context ends: a person who has not answered yet.
type blockingAuthorizer struct{ asked chan struct{} }

func (b blockingAuthorizer) Authorize(ctx context.Context, _ agent.ToolRequest) (tools.Withhold, error) {
	select {
	case b.asked <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

// detachable is a child process of this test binary whose session
// records it in home, waiting on its first question.
func startDetachable(t *testing.T, srv *llmtest.Server, home string) (*served, child.Handle, chan struct{}) {
	t.Helper()
	s := newServed(t, "write_file")
	s.job.Link.Hooks = nil
	s.job.Home = home
	asked := make(chan struct{}, 1)
	s.job.Link.Authorize = blockingAuthorizer{asked}
	r := New(Options{Endpoint: srv.Endpoint()})
	if !r.Detachable(s.job) {
		t.Fatal("a child process with a home is not detachable")
	}
	h, err := r.Start(context.Background(), s.job)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-asked:
	case <-h.Done():
		t.Fatalf("the child ended before its question: %+v", h.Ending())
	}
	return s, h, asked
}

// writeOnce is a child's model: one write, then a report.
func writeOnce(r *llmtest.Request, w *llmtest.Writer) {
	if len(toolOutputs(r)) == 0 {
		w.ToolCalls(llmtest.Call{ID: "w", Name: "write_file", Args: `{"path":"kept.txt","content":"written after baton came back\n"}`})
		return
	}
	w.Text("done after the re-attach")
}

// Baton lets go of a detachable child process without stopping it: the
// child waits with its question; a later baton finds it on its socket,
// the question is put to that baton's person, and the child ends there
// with its result.
func TestDetachAndAttachAChildProcess(t *testing.T) {
	srv := llmtest.NewServer(t, writeOnce)
	home := filepath.Join(t.TempDir(), "home")
	s, h, _ := startDetachable(t, srv, home)
	pid := h.(*handle).proc.(loose).Pid()
	if err := h.(child.Detacher).Detach(); err != nil {
		t.Fatalf("Detach: %v", err)
	}
	if e := ending(t, h); !e.Detached {
		t.Fatalf("the first baton's ending is not detached: %+v", e)
	}

	// A later baton attaches while the question still waits, and lets
	// go again before anyone answers.
	attachAs := func(auth agent.Authorizer) (*served, child.Handle) {
		t.Helper()
		again := newServed(t, "write_file")
		again.job.Link.Hooks = nil
		again.job.Home = home
		again.job.Spec.Workspace, again.job.Workspace = s.job.Spec.Workspace, s.job.Workspace
		if auth != nil {
			again.job.Link.Authorize = auth
		}
		h, err := New(Options{Endpoint: srv.Endpoint()}).Attach(context.Background(), again.job)
		if err != nil {
			t.Fatalf("Attach: %v", err)
		}
		return again, h
	}
	waiting := blockingAuthorizer{make(chan struct{}, 1)}
	_, held := attachAs(waiting)
	<-waiting.asked
	if err := held.(child.Detacher).Detach(); err != nil {
		t.Fatalf("Detach after an attach: %v", err)
	}
	if e := ending(t, held); !e.Detached {
		t.Fatalf("the second baton's ending is not detached: %+v", e)
	}

	again, h2 := attachAs(nil)
	e := ending(t, h2)
	if e.Status != event.StatusCompleted || e.Text != "done after the re-attach" {
		stderr, _ := os.ReadFile(filepath.Join(home, stderrName))
		t.Fatalf("after the re-attach the child ended %s %q: %s\nits stderr: %s", e.Status, e.Text, e.Reason, stderr)
	}
	if got := again.auth.asked(); len(got) != 1 || got[0] != "write_file ro=false" {
		t.Fatalf("the later baton was asked %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(s.job.Workspace.Root(), "kept.txt")); string(got) != "written after baton came back\n" {
		t.Fatalf("kept.txt = %q", got)
	}
	// The child process, let loose by the first baton, exited well.
	var status syscall.WaitStatus
	if _, err := syscall.Wait4(pid, &status, 0, nil); err != nil || status.ExitStatus() != 0 {
		t.Fatalf("child process %d ended %v (%v)", pid, status, err)
	}

	// Once it has ended, a baton that had taken none of its lines (the
	// one above died before it could record its ending) finds it in its
	// log: the same result.
	if err := os.WriteFile(filepath.Join(home, takenName), []byte("0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h3, err := New(Options{}).Attach(context.Background(), again.job)
	if err == nil {
		// Nobody writes to a log.
		if _, err := h3.(*handle).proc.Stdin().Write([]byte("ignored\n")); err != nil {
			t.Fatal(err)
		}
	}
	if err != nil {
		t.Fatalf("Attach to an ended child: %v", err)
	}
	if e := ending(t, h3); e.Status != event.StatusCompleted || e.Text != "done after the re-attach" {
		t.Fatalf("from the log: %s %q: %s", e.Status, e.Text, e.Reason)
	}
}

// A child nobody can take up is killed rather than left running: by
// Abandon, for a home whose runner this baton lacks, and by KillAll at
// a forced exit; a child that ends with baton is not detachable.
func TestAbandonAndKillAllEndDetachableChildren(t *testing.T) {
	srv := llmtest.NewServer(t, writeOnce)
	home := filepath.Join(t.TempDir(), "abandoned")
	_, h, _ := startDetachable(t, srv, home)
	Abandon(home, "general-purpose-1")
	if e := ending(t, h); e.Status != event.StatusFailed || !strings.Contains(e.Reason, "killed") {
		t.Fatalf("an abandoned child ended %s: %s", e.Status, e.Reason)
	}
	Abandon(filepath.Join(t.TempDir(), "no-home"), "general-purpose-1") // nothing to do

	// At a forced exit, a child this baton attached to is killed too.
	forced := filepath.Join(t.TempDir(), "forced")
	first, h, _ := startDetachable(t, srv, forced)
	if err := h.(child.Detacher).Detach(); err != nil {
		t.Fatal(err)
	}
	_ = ending(t, h)
	again := newServed(t, "write_file")
	again.job.Link.Hooks = nil
	again.job.Home = forced
	again.job.Spec.Workspace, again.job.Workspace = first.job.Spec.Workspace, first.job.Workspace
	waiting := blockingAuthorizer{make(chan struct{}, 1)}
	again.job.Link.Authorize = waiting
	h, err := New(Options{Endpoint: srv.Endpoint()}).Attach(context.Background(), again.job)
	if err != nil {
		t.Fatal(err)
	}
	<-waiting.asked
	pid := h.(*handle).proc.(loose).Pid()
	KillAll()
	if e := ending(t, h); e.Status != event.StatusFailed {
		t.Fatalf("a re-attached child at a forced exit ended %s: %s", e.Status, e.Reason)
	}
	// It is still this process's child, let loose: reap it, and see how
	// it ended.
	var status syscall.WaitStatus
	if _, err := syscall.Wait4(pid, &status, 0, nil); err != nil || !status.Signaled() || status.Signal() != syscall.SIGKILL {
		t.Fatalf("child process %d ended %v (%v), not killed", pid, status, err)
	}

	s := newServed(t, "read_file")
	srv2 := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("done") })
	h = s.start(t, context.Background(), srv2)
	_ = ending(t, h)
	if err := h.(child.Detacher).Detach(); err == nil || !strings.Contains(err.Error(), "ends with baton") {
		t.Fatalf("Detach of a child without a home: %v", err)
	}
}
