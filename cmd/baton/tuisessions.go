package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/ui"
)

// tuiSessions is the TUI's running session and how /resume switches it
// without quitting, as baton --resume ID would: a recorded session of the
// folder is opened and locked, a session is built for it from the same
// setup (config, agent types, MCP servers, rules) and the one it replaces
// is closed, its folder left as quitting would leave it.
type tuiSessions struct {
	ctx       context.Context
	setup     sessionSetup
	store     *transcript.Store // nil: sessions are not recorded
	workspace string

	mu      sync.Mutex
	current *engine.Session
	dir     *transcript.Dir
	// kept are the unreviewed changes of the sessions closed on the way,
	// said on the way out with the last one's.
	kept []engine.KeptWorktree
}

// list is this folder's sessions, most recently active first.
func (t *tuiSessions) list() ([]transcript.Summary, error) {
	found, err := t.store.List(t.workspace)
	if errors.Is(err, transcript.ErrNoSession) {
		return nil, nil
	}
	return found, err
}

// resume opens session id and makes it the running one; the one it
// replaces is closed. On an error nothing changes.
func (t *tuiSessions) resume(id string) (ui.Session, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.current != nil && t.current.ID() == id {
		return nil, errors.New("that is the session you are in")
	}
	dir, err := t.store.Open(t.workspace, id)
	if err != nil {
		return nil, err
	}
	if err := dir.Lock(); err != nil {
		_ = dir.Close()
		return nil, err
	}
	cfg := t.setup.engine
	cfg.Transcript = dir
	// As at start, the session does not inherit the run's cancellation:
	// closing it records what ran as interrupted.
	s, err := engine.NewSession(context.WithoutCancel(t.ctx), cfg)
	if err != nil {
		closeTranscript(dir)
		return nil, fmt.Errorf("open session %s: %w", id, err)
	}
	old, oldDir := t.current, t.dir
	t.current, t.dir = s, dir
	t.setup.mcp.rebind(s)
	if old != nil {
		old.Close()
		t.kept = append(t.kept, old.Kept()...)
	}
	closeTranscript(oldDir)
	return s, nil
}

// running is the session running now, and the unreviewed changes of the
// ones it replaced.
func (t *tuiSessions) running() (*engine.Session, []engine.KeptWorktree) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.current, t.kept
}

// closeDir closes the running session's folder once the session is
// closed; one in which no prompt was sent leaves nothing.
func (t *tuiSessions) closeDir() {
	t.mu.Lock()
	defer t.mu.Unlock()
	closeTranscript(t.dir)
}
