package main

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/ui"
)

// runTUI runs the full-screen program until the person quits. Nothing is
// written to stderr until the program has given the terminal back.
func runTUI(ctx context.Context, setup sessionSetup, theme string, demo bool, stderr io.Writer) int {
	s, err := engine.NewSession(ctx, setup.engine)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	defer s.Close()
	var window int64
	if info, ok := setup.engine.Catalog.Lookup(setup.engine.Model); ok {
		window = info.ContextWindow
	}
	err = ui.Run(ctx, s, ui.Options{
		Workspace:     setup.engine.Workspace,
		Theme:         theme,
		ContextWindow: window,
		Version:       version(),
		ContextWindowOf: func(model string) int64 {
			info, _ := setup.engine.Catalog.Lookup(model)
			return info.ContextWindow
		},
		Demo:         demo,
		Notices:      slices.Concat(setup.notices, s.StartNotes()),
		Mode:         string(setup.engine.Mode),
		Types:        setup.engine.Types.All(),
		TypeWarnings: setup.typeWarnings,
		ModelOf:      s.TypeModel,
		Sandbox:      setup.engine.Sandbox.Label(),
		SandboxInfo:  setup.engine.Sandbox.Describe(),
	})
	if ctx.Err() != nil {
		return exitInterrupted
	}
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed
	}
	return exitOK
}
