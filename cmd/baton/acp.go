package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/acp"
	"github.com/seed-e4e525a6/baton/engine/mcp"
	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/engine/trust"
)

// runACP is "baton acp": baton serves an editor over the Agent Client
// Protocol on stdin and stdout until the editor closes stdin or a signal
// ends baton. Every session the editor opens is set up from the config of
// its folder, as a run started there would be; stderr carries what the
// editor logs.
func runACP(ctx context.Context, inv *invocation, stdin io.Reader, stdout, stderr io.Writer) int {
	restoreLogs, err := redirectLogs(inv.cfg.DebugLog, false)
	if err != nil {
		fmt.Fprintf(stderr, "baton: BATON_DEBUG: %v\n", err)
		return exitUsage
	}
	defer restoreLogs()
	// An editor that goes away closes the pipe baton writes to: that must
	// end the sessions cleanly (recorded, servers stopped), not kill baton
	// with SIGPIPE. Caught, not ignored, so commands baton starts keep the
	// default.
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	defer signal.Stop(pipe)
	o := &acpOpener{flags: inv.flags, env: inv.env, stderr: &lockedWriter{w: stderr}, process: inv}
	err = acp.Serve(ctx, stdin, stdout, acp.Options{Open: o.open, List: o.sessions, Version: version()})
	switch {
	case ctx.Err() != nil:
		return exitInterrupted
	case err != nil:
		fmt.Fprintf(stderr, "baton: acp: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// acpOpener starts the editor's sessions.
type acpOpener struct {
	flags  flagValues
	env    map[string]string
	stderr io.Writer
	// process is the invocation baton started with, whose store lists
	// sessions.
	process *invocation
}

// open starts a baton session in the editor's folder: its config, trust,
// agent types and MCP servers (the editor's added), recorded as a new
// session or the one asked for.
func (o *acpOpener) open(ctx context.Context, req acp.OpenRequest) (acp.Opened, error) {
	inv, err := o.invocation(req.Workspace)
	if err != nil {
		return acp.Opened{}, err
	}
	dir, notes, err := o.transcript(inv, req.SessionID)
	if err != nil {
		return acp.Opened{}, err
	}
	setup := newSessionSetup(inv.cfg, inv.endpoint, inv.types, inv.workspace, inv.env, true)
	setup.notices = slices.Concat(inv.trustNotices(), inv.cfg.Notices, setup.notices, inv.mcp.Notices, notes)
	// The editor asks the person, card by card, as the TUI does.
	setup.engine.Mode = inv.cfg.Mode(false)
	setup.engine.Transcript, setup.engine.TrashChildTranscripts = dir, inv.cfg.Cleanup == "delete"
	setup.engine.Version = version()
	setup.engine.Editor = req.Editor
	setup.engine.Worktrees.Finish = inv.flags.worktrees
	inv.mcp.Servers = mcp.Merge(inv.mcp.Servers, req.MCPServers)
	servers := newMCPRun(inv)
	setup.engine.MCP = servers.source()
	s, err := engine.NewSession(ctx, setup.engine)
	if err != nil {
		servers.close()
		closeTranscript(dir)
		return acp.Opened{}, err
	}
	started := servers.startSettled(ctx, s)
	catalog := setup.engine.Catalog
	return acp.Opened{
		Session: s,
		Notices: slices.Concat(setup.notices, s.StartNotes(), s.ResumeNotes(), started),
		ContextWindow: func(model string) int64 {
			info, _ := catalog.Lookup(model)
			return info.ContextWindow
		},
		Close: func() {
			s.Close()
			servers.close()
			for _, k := range s.Kept() {
				fmt.Fprintf(o.stderr, "baton: %s's change (%s) is kept in %s on branch %s (see baton worktrees)\n", k.Agent, k.Change, k.Path, k.Branch)
			}
			closeTranscript(dir)
		},
	}, nil
}

// invocation resolves the config of the editor's folder, as a run started
// there would: the person's trust decides what the project may set, and
// baton refuses the home folder and the root unless trusted, as headless
// runs do (nobody is at a card to confirm them).
func (o *acpOpener) invocation(workspace string) (*invocation, error) {
	info, err := os.Stat(workspace)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("workspace %s is not a folder", workspace)
	}
	inv := &invocation{flags: o.flags, env: o.env, workspace: workspace}
	inv.trust = trust.Lookup(workspace, o.env, o.flags.trust)
	if err := inv.load(); err != nil {
		return nil, err
	}
	if inv.trust.Broad(o.env) {
		return nil, errors.New("refusing to work in your home folder or the root untrusted: read-only tools there reach keys " +
			"and credentials without asking; open a project folder, or run baton trust on this one")
	}
	return inv, nil
}

// transcript opens where the session is recorded: a new session, or the
// one to load. A new session that cannot be recorded runs anyway, and
// says so; a session to load must be there, and not open in another
// baton.
func (o *acpOpener) transcript(inv *invocation, id string) (*transcript.Dir, []string, error) {
	store, err := openStore(inv)
	if err != nil {
		if id != "" {
			return nil, nil, err
		}
		return nil, []string{err.Error() + "; this session is not recorded"}, nil
	}
	var dir *transcript.Dir
	if id == "" {
		dir, err = store.Create(inv.workspace, time.Now())
	} else {
		dir, err = store.Open(inv.workspace, id)
	}
	if err != nil {
		return nil, nil, err
	}
	if err := dir.Lock(); err != nil {
		closeTranscript(dir)
		return nil, nil, err
	}
	return dir, nil, nil
}

// closeTranscript closes a session's folder; one in which no prompt was
// sent leaves nothing behind.
func closeTranscript(dir *transcript.Dir) {
	if dir != nil {
		_, _ = dir.CloseDiscardingEmpty()
	}
}

// sessions lists baton's sessions of a folder for the editor's history.
func (o *acpOpener) sessions(workspace string) ([]acp.Listed, error) {
	store, err := openStore(o.process)
	if err != nil {
		return nil, err
	}
	var found []transcript.Summary
	if workspace == "" {
		found, err = store.ListAll()
	} else {
		found, err = store.List(workspace)
	}
	if err != nil && !errors.Is(err, transcript.ErrNoSession) {
		return nil, err
	}
	out := make([]acp.Listed, 0, len(found))
	for _, s := range found {
		out = append(out, acp.Listed{ID: s.ID, Workspace: s.Workspace, Title: s.Title, LastActive: s.LastActive})
	}
	return out, nil
}
