package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// recordSession runs one prompt in a new recorded session of ws and
// closes it, as a run of baton would leave it.
func recordSession(t *testing.T, store *transcript.Store, cfg engine.Config, prompt string, at time.Time) string {
	t.Helper()
	dir, err := store.Create(cfg.Workspace, at)
	if err != nil {
		t.Fatal(err)
	}
	if err := dir.Lock(); err != nil {
		t.Fatal(err)
	}
	cfg.Transcript = dir
	s, err := engine.NewSession(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Submit(prompt); err != nil {
		t.Fatal(err)
	}
	for ev := range s.Events() {
		if e, ok := ev.(event.TurnEnded); ok && e.Agent == event.MainAgent {
			break
		}
	}
	s.Close()
	closeTranscript(dir)
	return dir.ID()
}

// /resume switches the TUI's session to another of the folder's, as
// --resume would: the one switched to replays its conversation and is
// locked, the one left is closed and unlocked, and a session in use
// elsewhere, the running one or an unknown id changes nothing.
func TestTUISessionsSwitch(t *testing.T) {
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("answer to " + req.LastUser()) })
	ws := t.TempDir()
	store := transcript.NewStore(t.TempDir(), transcript.NewRedactor())
	cfg := engine.Config{Client: srv.Client(), Model: "gpt-4.1", Workspace: ws, Mode: permission.Ask, Types: agenttypes.NewRegistry()}
	older := recordSession(t, store, cfg, "the older question", time.Now().Add(-time.Hour))

	first, err := store.Create(ws, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Lock(); err != nil {
		t.Fatal(err)
	}
	running := cfg
	running.Transcript = first
	s, err := engine.NewSession(context.Background(), running)
	if err != nil {
		t.Fatal(err)
	}
	sessions := &tuiSessions{ctx: context.Background(), setup: sessionSetup{engine: cfg}, store: store, workspace: ws, current: s, dir: first}
	t.Cleanup(func() {
		cur, _ := sessions.running()
		cur.Close()
		sessions.closeDir()
	})

	list, err := sessions.list()
	if err != nil || len(list) != 1 || list[0].ID != older || list[0].Title != "the older question" {
		t.Fatalf("list = %+v, %v (the running session has no prompt yet)", list, err)
	}
	if _, _, err := sessions.resume("20990101-0000-none"); err == nil {
		t.Error("an unknown id was resumed")
	}
	if cur, _ := sessions.running(); cur != s {
		t.Fatal("a failed resume changed the session")
	}

	got, closeOld, err := sessions.resume(older)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case _, open := <-s.Events():
		if !open {
			t.Fatal("the session left was closed before the UI let go of it")
		}
	default:
	}
	closeOld()
	var prompts []string
	for _, ev := range got.History() {
		if e, ok := ev.(event.TurnStarted); ok {
			prompts = append(prompts, e.Prompt)
		}
	}
	if len(prompts) != 1 || prompts[0] != "the older question" {
		t.Errorf("the resumed session replays %q", prompts)
	}
	if cur, _ := sessions.running(); cur.ID() != older {
		t.Errorf("the running session is %s, want %s", cur.ID(), older)
	}
	if err := s.Submit("late"); !errors.Is(err, engine.ErrClosed) {
		t.Errorf("the session left still takes prompts: %v", err)
	}
	if _, _, err := sessions.resume(older); err == nil || !strings.Contains(err.Error(), "the session you are in") {
		t.Errorf("resuming the running session: %v", err)
	}
	// The one switched to is locked: another baton cannot take it.
	other, err := store.Open(ws, older)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Lock(); !errors.Is(err, transcript.ErrInUse) {
		t.Errorf("the resumed session is not locked: %v", err)
	}
	_ = other.Close()
}

// A session another baton holds is not taken over.
func TestTUISessionsRefuseASessionInUse(t *testing.T) {
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	ws := t.TempDir()
	store := transcript.NewStore(t.TempDir(), transcript.NewRedactor())
	cfg := engine.Config{Client: srv.Client(), Model: "gpt-4.1", Workspace: ws, Mode: permission.Ask, Types: agenttypes.NewRegistry()}
	busy := recordSession(t, store, cfg, "held elsewhere", time.Now().Add(-time.Minute))
	holder, err := store.Open(ws, busy)
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Lock(); err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	sessions := &tuiSessions{ctx: context.Background(), setup: sessionSetup{engine: cfg}, store: store, workspace: ws}
	if _, _, err := sessions.resume(busy); !errors.Is(err, transcript.ErrInUse) {
		t.Errorf("resuming a session in use: %v", err)
	}
}
