package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/config"
	"github.com/seed-e4e525a6/baton/engine/trust"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/trustcard"
)

// load reads the config and the agent files as the folder's trust
// allows, and picks the endpoint.
func (inv *invocation) load() error {
	src := config.Sources{Flags: inv.flags.overrides(), Env: inv.env, Workspace: inv.workspace, Trusted: inv.trust.Trusted, Themes: themes.Names()}
	cfg, err := config.Load(src)
	if err != nil {
		return err
	}
	// An editor has no screen for the demo: like a headless run, baton
	// acp needs an endpoint.
	ep, err := cfg.Endpoint(inv.headless || inv.flags.acp, inv.flags.demo)
	if err != nil {
		return err
	}
	opts := agenttypes.LoadOptions{ProjectDir: inv.workspace, UserConfigDir: config.UserDir(inv.env), HomeDir: inv.env["HOME"],
		UserAgents: cfg.AgentsUser, ProjectAgents: cfg.AgentsProject}
	if !inv.trust.Trusted {
		lim := cfg.Limits.WithDefaults()
		opts.Untrusted = &agenttypes.Untrusted{MaxSteps: lim.ChildStepsReadOnly, Timeout: lim.ChildTimeout,
			Tokens: lim.ChildBudget.Tokens, CostUSD: lim.ChildBudget.CostUSD}
	}
	// MCP servers are resolved here too, so trusting the folder on its
	// card starts the project's servers without a card each.
	servers, err := cfg.MCP(src, inv.headless)
	if err != nil {
		return err
	}
	inv.cfg, inv.endpoint, inv.types, inv.mcp = cfg, ep, agenttypes.Load(opts), servers
	return nil
}

// trustNotices are what the person is told about the project's files:
// why the trust list could not be used, what was ignored and how to
// apply it.
func (inv *invocation) trustNotices() []string {
	notes := inv.cfg.WithheldNotices(inv.types.Withheld())
	if inv.trust.Notice != "" {
		notes = append([]string{inv.trust.Notice}, notes...)
	}
	return notes
}

// askFunc shows the trust card and returns the answer; trustcard.Ask,
// or a scripted answer in tests.
type askFunc func(ctx context.Context, req trust.Request, theme string) (trustcard.Choice, error)

// settleTrust asks before a run in a folder that needs it: headless runs
// in the home folder or the root are refused without --trust, and the TUI
// shows the card when the project wants more than it gets untrusted (once,
// until it wants something new) or the folder is home or root. ok is false
// when the program should end with code.
func settleTrust(ctx context.Context, inv *invocation, ask askFunc, stderr io.Writer) (code int, ok bool) {
	broad := inv.trust.Broad(inv.env)
	if inv.headless {
		if broad {
			fmt.Fprintf(stderr, "baton: %v\n", trust.ErrBroadFolder)
			return exitUsage, false
		}
		return exitOK, true
	}
	req := inv.cfg.TrustRequest(inv.workspace, broad, inv.types.Withheld())
	if !inv.trust.MustAsk(req) {
		return exitOK, true
	}
	choice, err := ask(ctx, req, inv.cfg.Theme)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitFailed, false
	}
	switch {
	case ctx.Err() != nil:
		return exitInterrupted, false
	case choice == trustcard.Quit:
		return exitOK, false
	case choice == trustcard.RunWithout:
		inv.trust.Decline(req)
		return exitOK, true
	}
	// Trusted: recorded, and the project's settings loaded in full.
	inv.trust.Grant(time.Now())
	if err := inv.load(); err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitUsage, false
	}
	return exitOK, true
}
