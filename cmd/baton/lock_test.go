package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/config"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// TestContinueOnSessionInUse: while another process holds a session, a
// headless --continue exits 2 saying it is in use and by whom, and the TUI
// gets a new session with a notice instead. The held session's transcript
// gets nothing from either.
func TestContinueOnSessionInUse(t *testing.T) {
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	ws, home := t.TempDir(), t.TempDir()
	env := []string{"OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=sk-test-0123456789"}
	if r := runAt(t, ws, home, env, "-p", "first"); r.code != exitOK {
		t.Fatalf("first run: exit %d: %s", r.code, r.stderr)
	}
	store := transcript.NewStore(filepath.Join(home, ".local", "state", "baton", "sessions"), nil)
	held, err := store.Latest(ws)
	if err != nil {
		t.Fatal(err)
	}
	if err := held.Lock(); err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	before, err := os.ReadFile(held.FileOf(transcript.MainAgent))
	if err != nil {
		t.Fatal(err)
	}

	r := runAt(t, ws, home, env, "--continue", "-p", "second")
	if r.code != exitUsage || !strings.Contains(r.stderr, "in use by another baton process") ||
		!strings.Contains(r.stderr, fmt.Sprintf("pid %d", os.Getpid())) {
		t.Fatalf("headless --continue on a held session: exit %d, stderr %q", r.code, r.stderr)
	}

	inv := &invocation{flags: flagValues{cont: true}, workspace: ws,
		env: map[string]string{"HOME": home}, cfg: config.Config{PruneAfterDays: 30}}
	dir, _, notices, err := openTranscript(inv, time.Now())
	if err != nil {
		t.Fatalf("TUI --continue on a held session: %v", err)
	}
	defer dir.Close()
	if dir.ID() == held.ID() || len(notices) != 1 || !strings.Contains(notices[0], "in use") ||
		!strings.Contains(notices[0], "new session ("+dir.ID()+")") {
		t.Fatalf("TUI got session %s (held %s), notices %q", dir.ID(), held.ID(), notices)
	}
	if after, _ := os.ReadFile(held.FileOf(transcript.MainAgent)); string(after) != string(before) {
		t.Fatal("the held session's transcript was written to")
	}
}
