package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/ui/trustcard"
)

// folderTrust is whether this run applies the project's files in full.
type folderTrust struct {
	folder  string // the workspace, symlinks resolved: what trust is recorded under
	trusted bool
	byFlag  bool // --trust: trusted for this run only
	store   trustStore
	// notice says why the trust list could not be used; the folder is
	// then untrusted, which is the safe way to fail.
	notice string
}

// lookupTrust decides whether the workspace is trusted: --trust, or the
// folder on the person's trust list.
func lookupTrust(workspace string, env map[string]string, flag bool) folderTrust {
	ft := folderTrust{folder: workspace, trusted: flag, byFlag: flag}
	if real, err := resolveFolder(workspace); err == nil {
		ft.folder = real
	}
	store, err := newTrustStore(env)
	if err != nil {
		ft.notice = err.Error() + "; this folder is treated as untrusted"
		return ft
	}
	ft.store = store
	if flag {
		return ft
	}
	if ft.trusted, err = store.trusted(ft.folder); err != nil {
		ft.notice = err.Error() + "; this folder is treated as untrusted"
	}
	return ft
}

// load reads the config and the agent files as the folder's trust
// allows, and picks the endpoint.
func (inv *invocation) load() error {
	cfg, err := loadConfig(configSources{flags: inv.flags, env: inv.env, workspace: inv.workspace, trusted: inv.trust.trusted})
	if err != nil {
		return err
	}
	// An editor has no screen for the demo: like a headless run, baton
	// acp needs an endpoint.
	ep, err := chooseEndpoint(cfg, inv.headless || inv.flags.acp, inv.flags.demo)
	if err != nil {
		return err
	}
	opts := agenttypes.LoadOptions{ProjectDir: inv.workspace, UserConfigDir: userConfigDir(inv.env), HomeDir: inv.env["HOME"]}
	if !inv.trust.trusted {
		lim := cfg.Limits.WithDefaults()
		opts.Untrusted = &agenttypes.Untrusted{MaxSteps: lim.ChildStepsReadOnly, Timeout: lim.ChildTimeout,
			Tokens: lim.ChildBudget.Tokens, CostUSD: lim.ChildBudget.CostUSD}
	}
	// MCP servers are resolved here too, so trusting the folder on its
	// card starts the project's servers without a card each.
	servers, err := resolveMCP(cfg, inv.flags, inv.workspace, inv.env, inv.headless, inv.trust.trusted)
	if err != nil {
		return err
	}
	inv.cfg, inv.endpoint, inv.types, inv.mcp = cfg, ep, agenttypes.Load(opts), servers
	return nil
}

// trustNotices are what the person is told about the project's files:
// what was ignored and how to apply it.
func (inv *invocation) trustNotices() []string {
	notes := withheldNotices(inv.cfg.withheld, inv.types.Withheld())
	for _, n := range hookNotices(inv.cfg.withheldHooks) {
		if !slices.Contains(notes, n) { // one trust hint
			notes = append(notes, n)
		}
	}
	if inv.trust.notice != "" {
		notes = append([]string{inv.trust.notice}, notes...)
	}
	return notes
}

// request is the card for this folder: what its project files want.
func (inv *invocation) request(broad bool) trustcard.Request {
	req := trustRequest(inv.workspace, broad, inv.cfg.withheld, inv.types.Withheld())
	extensionSections(&req, inv.workspace, inv.cfg.withheldHooks, inv.cfg.Skills.All())
	return req
}

// askFunc shows the trust card and returns the answer; trustcard.Ask,
// or a scripted answer in tests.
type askFunc func(ctx context.Context, req trustcard.Request, theme string) (trustcard.Choice, error)

// settleTrust asks before a run in a folder that needs it: headless runs
// in the home folder or the root are refused without --trust, and the TUI
// shows the card when the project wants more than it gets untrusted (once,
// until it wants something new) or the folder is home or root. ok is false
// when the program should end with code.
func settleTrust(ctx context.Context, inv *invocation, ask askFunc, stderr io.Writer) (code int, ok bool) {
	broad := !inv.trust.trusted && isBroadFolder(inv.trust.folder, inv.env)
	if inv.headless {
		if broad {
			fmt.Fprintf(stderr, "baton: %v\n", errBroadFolder)
			return exitUsage, false
		}
		return exitOK, true
	}
	req := inv.request(broad)
	wants := fingerprint(req)
	if !broad && (len(req.Sections) == 0 || inv.declined(wants)) {
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
		if !broad && inv.trust.store.path != "" {
			if err := inv.trust.store.decline(inv.trust.folder, wants); err != nil {
				inv.trust.notice = "could not record your choice: " + err.Error()
			}
		}
		return exitOK, true
	}
	return inv.trustNow(stderr)
}

// trustNow records the folder as trusted and reloads with its settings.
func (inv *invocation) trustNow(stderr io.Writer) (int, bool) {
	inv.trust.trusted = true
	if inv.trust.store.path == "" {
		inv.trust.notice = "trusted for this run only (" + inv.trust.notice + ")"
	} else if _, err := inv.trust.store.add(inv.trust.folder, time.Now()); err != nil {
		inv.trust.notice = "trusted for this run only; could not record it: " + err.Error()
	}
	if err := inv.load(); err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return exitUsage, false
	}
	return exitOK, true
}

// declined reports whether the person already ran this folder without
// exactly these project settings.
func (inv *invocation) declined(wants string) bool {
	if inv.trust.store.path == "" {
		return false
	}
	done, err := inv.trust.store.declined(inv.trust.folder, wants)
	return err == nil && done
}

// fingerprint identifies what a project asks for, so a refusal holds until
// the project asks for something else.
func fingerprint(req trustcard.Request) string {
	h := sha256.New()
	for _, s := range req.Sections {
		fmt.Fprintf(h, "%s\n%s\n\n", s.Title, strings.Join(s.Lines, "\n"))
	}
	return hex.EncodeToString(h.Sum(nil))
}
