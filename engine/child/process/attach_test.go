package process

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// TestAttachHearsOnlyTheChildOnItsSocket: a detached child's abstract
// socket has no permissions and its name is public (/proc/net/unix), so
// once the child has gone another process may listen on the name. A
// baton attaching then must neither tell it the token nor take its lines
// (a forged result, questions for the person, tools run at baton's end):
// it reads the child's own log instead.
func TestAttachHearsOnlyTheChildOnItsSocket(t *testing.T) {
	dir := t.TempDir()
	h, err := newHome(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	h.started()
	// The child's process, as the earlier baton recorded it: not this
	// one, which squats the name below.
	if err := h.save(os.Getppid(), "explore-1"); err != nil {
		t.Fatal(err)
	}
	h.close()
	own, _ := json.Marshal(up{Seq: 1, Result: &agent.Result{Status: event.StatusCompleted, Text: "the child's own result"}})
	if err := os.WriteFile(filepath.Join(dir, logName), append(own, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}

	squat, err := net.Listen("unix", "@"+h.socket)
	if err != nil {
		t.Fatal(err)
	}
	defer squat.Close()
	heard := make(chan string, 1)
	// Ends after one connection: it reads what baton says first and
	// answers with a forged result.
	go func() {
		nc, err := squat.Accept()
		if err != nil {
			heard <- ""
			return
		}
		defer nc.Close()
		forged, _ := json.Marshal(up{Seq: 1, Result: &agent.Result{Status: event.StatusCompleted, Text: "forged"}})
		_, _ = nc.Write(append(forged, '\n'))
		line, _ := newLineReader(nc).next()
		heard <- string(line)
	}()

	job := child.Job{Home: dir, Spec: child.Spec{Meta: event.Meta{Agent: "c1"}}}
	hd, err := New(Options{}).Attach(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	<-hd.Done()
	if got := hd.Ending().Text; got != "the child's own result" {
		t.Errorf("the attaching baton took %q, want the child's own logged result", got)
	}
	_ = squat.Close()
	if line := <-heard; line != "" {
		t.Errorf("the process squatting the child's socket was told %s", line)
	}
}

// TestASilentConnectionHoldsUpNoBaton: anyone on the machine can connect
// to a detached child's socket; one that connects and says nothing must
// not keep the person's next baton from attaching.
func TestASilentConnectionHoldsUpNoBaton(t *testing.T) {
	r, err := openRelay(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.log.Close()
	c := &conn{out: r, relay: r, asked: map[int64]question{}}
	name := "@baton-test-" + filepath.Base(t.TempDir())
	l, err := net.Listen("unix", name)
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan struct{})
	go func() {
		defer close(served)
		c.awaitBatons(l, "the token", nil)
	}()
	defer func() { _ = l.Close(); <-served }()

	silent, err := net.Dial("unix", name)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	baton, err := net.Dial("unix", name)
	if err != nil {
		t.Fatal(err)
	}
	defer baton.Close()
	if err := (&lineWriter{w: baton}).write(down{Attach: &attach{Token: "the token"}}); err != nil {
		t.Fatal(err)
	}
	line, err := newLineReader(baton).next()
	if err != nil {
		t.Fatalf("the baton was not replayed to: %v", err)
	}
	var u up
	if json.Unmarshal(line, &u) != nil || u.Caught != 0 || u.Seq != 0 {
		t.Errorf("the baton was sent %s, want the end of an empty replay", line)
	}
}
