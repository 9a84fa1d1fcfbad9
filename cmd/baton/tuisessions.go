package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/ui"
)

// tuiSessions is the TUI's running session and how /resume switches it
// without quitting, as baton --resume ID would: a recorded session of the
// folder is opened and locked, a session is built for it from the same
// setup (config, agent types, MCP servers, rules) and the one it replaces
// is closed once the UI has let go of it (closeLeft), its folder left as
// quitting would leave it. Closed earlier, its channel would end while
// the UI still read it, and the UI would take that for the end.
type tuiSessions struct {
	ctx       context.Context
	setup     sessionSetup
	store     *transcript.Store // nil: sessions are not recorded
	workspace string

	mu      sync.Mutex
	current *engine.Session
	dir     *transcript.Dir
	// left are the sessions switched away from and not closed yet.
	left []leftSession
	// kept are the unreviewed changes of the sessions closed on the way,
	// said on the way out with the last one's.
	kept []child.KeptWorktree
}

// leftSession is a session switched away from, with its folder.
type leftSession struct {
	s   *engine.Session
	dir *transcript.Dir
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
// replaces is closed by closeLeft, which it returns for the UI to call
// once it reads the new one. On an error nothing changes.
func (t *tuiSessions) resume(id string) (ui.Session, func(), error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.current != nil && t.current.ID() == id {
		return nil, nil, errors.New("that is the session you are in")
	}
	dir, err := t.store.Open(t.workspace, id)
	if err != nil {
		return nil, nil, err
	}
	if err := dir.Lock(); err != nil {
		_ = dir.Close()
		return nil, nil, err
	}
	cfg := t.setup.engine
	cfg.Transcript = dir
	// As at start, the session does not inherit the run's cancellation:
	// closing it records what ran as interrupted.
	s, err := engine.NewSession(context.WithoutCancel(t.ctx), cfg)
	if err != nil {
		closeTranscript(dir)
		return nil, nil, fmt.Errorf("open session %s: %w", id, err)
	}
	if t.current != nil {
		t.left = append(t.left, leftSession{s: t.current, dir: t.dir})
	}
	t.current, t.dir = s, dir
	t.setup.mcp.rebind(s)
	return s, t.closeLeft, nil
}

// closeLeft closes the sessions switched away from, and their folders.
// It is called again on the way out, for one the UI had no time to
// close.
func (t *tuiSessions) closeLeft() {
	t.mu.Lock()
	left := t.left
	t.left = nil
	t.mu.Unlock()
	for _, l := range left {
		l.s.Close()
		kept := l.s.Kept()
		closeTranscript(l.dir)
		t.mu.Lock()
		t.kept = append(t.kept, kept...)
		t.mu.Unlock()
	}
}

// running is the session running now, and the unreviewed changes of the
// ones it replaced, which it closes first if the UI did not.
func (t *tuiSessions) running() (*engine.Session, []child.KeptWorktree) {
	t.closeLeft()
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
