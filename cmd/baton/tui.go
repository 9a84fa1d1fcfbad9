package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/ui"
	"github.com/seed-e4e525a6/baton/ui/overlay/modelpick"
)

// tuiOptions are the flags and handles only the full-screen program uses.
type tuiOptions struct {
	theme string
	demo  bool
	term  *ui.Terminal
	// mouse is the mouse config key: false leaves the mouse alone.
	mouse bool
	// history is the project's prompt history (nil: not kept).
	history *transcript.History
	// self is how the person starts this baton again, for the hints
	// printed on the way out.
	self selfCommand
	// trust is /trust (nil: no trust list to record it in).
	trust func() (string, error)
	// store holds the folder's sessions, for /resume (nil: sessions are
	// not recorded).
	store *transcript.Store
}

// promptHistory is the project's prompt history, or nil when there is no
// state folder to keep it in.
func promptHistory(store *transcript.Store, workspace string) *transcript.History {
	if store == nil {
		return nil
	}
	h, err := store.History(workspace)
	if err != nil {
		slog.Warn("prompt history", "err", err)
		return nil
	}
	return h
}

// historyOptions loads the prompt history for the UI and gives it the
// way to add to it; a history that cannot be read starts empty.
func historyOptions(h *transcript.History) ([]string, func(string) error) {
	if h == nil {
		return nil, nil
	}
	prompts, err := h.Load()
	if err != nil {
		slog.Warn("prompt history", "err", err)
	}
	return prompts, func(p string) error {
		_, err := h.Add(p, time.Now())
		return err
	}
}

// runTUI runs the full-screen program until the person quits or a signal
// cancels ctx. Nothing is written to stdout or stderr until the program
// has given the terminal back; then one line says how to resume.
//
// The session does not inherit ctx's cancellation: the UI returns first,
// so the screen comes back at once, and Close then cancels what still
// runs with a cause that records it as interrupted.
func runTUI(ctx context.Context, setup sessionSetup, o tuiOptions, stdout, stderr io.Writer) int {
	// The screen changes at most once a frame, so streams gather for a
	// frame from their start.
	setup.engine.Gather = llm.Gather{Most: ui.FrameInterval}
	s, err := engine.NewSession(context.WithoutCancel(ctx), setup.engine)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	setup.mcp.start(ctx, s)
	sessions := &tuiSessions{ctx: ctx, setup: setup, store: o.store, workspace: setup.engine.Workspace, current: s, dir: setup.engine.Transcript}
	var sessionList func() ([]transcript.Summary, error)
	var resume func(string) (ui.Session, func(), error)
	if o.store != nil && setup.engine.Transcript != nil {
		sessionList, resume = sessions.list, sessions.resume
	}
	var window int64
	if info, ok := setup.engine.Catalog.Lookup(setup.engine.Model); ok {
		window = info.ContextWindow
	}
	history, remember := historyOptions(o.history)
	err = ui.Run(ctx, s, ui.Options{
		History:        history,
		RememberPrompt: remember,
		Models:         servedModels(s, setup.engine.Catalog),
		NoMouse:        !o.mouse,
		CheckModel:     s.CheckModel,
		Workspace:      setup.engine.Workspace,
		Theme:          o.theme,
		ContextWindow:  window,
		Version:        version(),
		ContextWindowOf: func(model string) int64 {
			info, _ := setup.engine.Catalog.Lookup(model)
			return info.ContextWindow
		},
		Demo:                o.demo,
		Notices:             slices.Concat(setup.notices, s.StartNotes()),
		Mode:                string(setup.engine.Mode),
		Types:               setup.engine.Types.All(),
		TypeWarnings:        setup.typeWarnings,
		ModelOf:             s.TypeModel,
		Terminal:            o.term,
		Sandbox:             setup.engine.Sandbox.Label(),
		SandboxInfo:         setup.engine.Sandbox.Describe,
		SubagentSandboxInfo: setup.engine.Sandbox.WithNetwork(setup.engine.SandboxNetwork == "on").Describe,
		Commands:            setup.commands,
		MCPPrompts:          setup.mcp.prompts(),
		Notify:              setup.notify,
		// The bell goes to the terminal the program draws on; one byte
		// written between two frames.
		Bell:      os.Stdout,
		SaveRules: setup.saveRules,
		Trust:     o.trust,
		Sessions:  sessionList,
		Resume:    resume,
	})
	s, kept := sessions.running() // /resume may have switched it
	s.Close()
	sessions.closeDir()
	// Changes nobody reviewed are never lost: Close committed each on a
	// branch in its worktree, and the person is told where.
	for _, k := range append(kept, s.Kept()...) {
		fmt.Fprintf(stderr, "baton: %s's change (%s) was not reviewed; it is kept in %s on branch %s (see %s)\n",
			k.Agent, k.Change, k.Path, k.Branch, o.self.with("worktrees"))
	}
	if id := s.ID(); id != "" && !s.Empty() {
		fmt.Fprintf(stdout, "resume this session with: %s   (or %s)\n", o.self.with("--continue"), o.self.with("--resume "+id))
	}
	if ctx.Err() != nil {
		return exitInterrupted
	}
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// servedModels lists the endpoint's models with the catalogue's facts,
// for the /model picker; it never waits for the list.
func servedModels(s *engine.Session, catalog *llm.Catalog) func() ([]modelpick.Model, bool) {
	return func() ([]modelpick.Model, bool) {
		ids, ready := s.ServedModels()
		models := make([]modelpick.Model, 0, len(ids))
		for _, id := range ids {
			m := modelpick.Model{ID: id}
			if info, ok := catalog.Lookup(id); ok {
				m.ContextWindow, m.PriceKnown = info.ContextWindow, info.PriceKnown
				m.InputPerMillion, m.OutputPerMillion = info.InputPerMillion, info.OutputPerMillion
				m.Vision, m.Reasoning = info.SupportsImages, info.CanReason
			}
			models = append(models, m)
		}
		return models, ready
	}
}
