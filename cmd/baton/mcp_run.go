package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/mcp"
)

// mcpRun owns the MCP servers of one run: it starts them, reports on
// them and ends them with the run. A nil *mcpRun (no servers) does
// nothing.
type mcpRun struct {
	m       *mcp.Manager
	session atomic.Pointer[engine.Session]
	// trust records the folder as trusted, as `baton trust` does (nil
	// when there is no trust list to record it in); trusted says the
	// person did so on a card, so the folder's other servers start
	// without one.
	trust   func() (string, error)
	trusted atomic.Bool
	// watch ends the headless watcher; watched is closed when it has.
	watch   context.CancelFunc
	watched chan struct{}
}

// newMCPRun prepares the servers of inv; nil when there are none.
func newMCPRun(inv *invocation) *mcpRun {
	if len(inv.mcp.Servers) == 0 {
		return nil
	}
	var environ []string
	for k, v := range inv.env {
		environ = append(environ, k+"="+v)
	}
	r := &mcpRun{}
	if store, folder := inv.trust.Store, inv.trust.Path; store != nil {
		r.trust = func() (string, error) {
			changed, err := store.Add(folder, time.Now())
			if err != nil {
				return "", err
			}
			r.trusted.Store(true)
			return trustMessage("trust", folder, changed, inv.env) + "; its MCP servers start without asking", nil
		}
	}
	r.m = mcp.NewManager(inv.mcp.Servers, mcp.Options{
		StartupTimeout: inv.mcp.StartupTimeout, CallTimeout: inv.mcp.CallTimeout, Dir: inv.workspace, Environ: environ, Version: version(),
		Ask: r.ask,
	})
	return r
}

// source is what the engine reads tools and statuses from (nil without
// servers, so the engine sees no source at all).
func (r *mcpRun) source() engine.MCPSource {
	if r == nil {
		return nil
	}
	return r.m
}

// prompts is where the UI reads the servers' prompts (nil without
// servers).
func (r *mcpRun) prompts() func() []event.MCPPrompt {
	if r == nil {
		return nil
	}
	return r.m.Prompts
}

// ask shows a card for a server of an untrusted project, through the
// session once there is one; before that, and in headless runs, nothing
// is started unasked. Once the person trusted the folder on a card, its
// servers start.
func (r *mcpRun) ask(ctx context.Context, s mcp.Server) bool {
	if r.trusted.Load() {
		return true
	}
	session := r.session.Load()
	if session == nil {
		return false
	}
	return session.ApproveMCPServer(ctx, engine.MCPServerAsk{Name: s.Name, Source: s.Source, Command: s.Target(), TrustFolder: r.trust})
}

// start launches the servers in the background for the TUI: the first
// frame never waits for them, and cards for untrusted servers go through
// session.
func (r *mcpRun) start(ctx context.Context, session *engine.Session) {
	if r == nil {
		return
	}
	r.session.Store(session)
	r.m.Start(ctx)
}

// rebind sends the cards of servers still to start through session, the
// one /resume switched to.
func (r *mcpRun) rebind(session *engine.Session) {
	if r != nil {
		r.session.Store(session)
	}
}

// startSettled launches the servers for an editor's session and waits,
// at most the startup timeout, until each has connected or failed, or
// waits for the person's answer on a card (the editor shows those once
// the session is open), so the first prompt finds their tools. It returns
// what the person should be told about servers left out.
func (r *mcpRun) startSettled(ctx context.Context, session *engine.Session) []string {
	if r == nil {
		return nil
	}
	r.start(ctx, session)
	wait, cancel := context.WithTimeout(ctx, r.m.StartupTimeout()+time.Second)
	_ = r.m.Wait(wait, func(servers []event.MCPServer) bool {
		for _, s := range servers {
			if !s.Settled() && s.State != event.MCPAwaitingApproval {
				return false
			}
		}
		return true
	})
	cancel()
	var notes []string
	for _, s := range r.m.Statuses() {
		switch s.State {
		case event.MCPFailed:
			notes = append(notes, fmt.Sprintf("MCP server %s failed: %s; its tools are left out", s.Name, s.Error))
		case event.MCPStarting, event.MCPRestarting:
			notes = append(notes, fmt.Sprintf("MCP server %s is not ready after %s; its tools come when it is", s.Name, r.m.StartupTimeout()))
		}
	}
	return notes
}

// startHeadless launches the servers and waits until each has connected
// or failed, at most the startup timeout, naming on stderr every server
// left out; then it watches for servers that exit during the run.
func (r *mcpRun) startHeadless(ctx context.Context, stderr io.Writer) {
	if r == nil {
		return
	}
	r.m.Start(ctx)
	// A little grace lets a server that times out be ended and marked
	// failed, so it is named with its reason.
	wait, cancel := context.WithTimeout(ctx, r.m.StartupTimeout()+time.Second)
	_ = r.m.Wait(wait, mcp.AllSettled)
	cancel()
	last := r.m.Statuses()
	for _, s := range last {
		switch s.State {
		case event.MCPConnected, event.MCPNotStarted:
		case event.MCPFailed:
			fmt.Fprintf(stderr, "baton: MCP server %s failed: %s; its tools are left out\n", s.Name, s.Error)
		default:
			fmt.Fprintf(stderr, "baton: MCP server %s not ready after %s; its tools are left out\n", s.Name, r.m.StartupTimeout())
		}
	}
	watchCtx, stop := context.WithCancel(ctx)
	r.watch, r.watched = stop, make(chan struct{})
	// The watcher ends when close cancels watchCtx.
	go func() {
		defer close(r.watched)
		r.report(watchCtx, last, stderr)
	}()
}

// report names each server that leaves the connected state, until ctx
// ends.
func (r *mcpRun) report(ctx context.Context, last []event.MCPServer, stderr io.Writer) {
	for {
		var now []event.MCPServer
		err := r.m.Wait(ctx, func(s []event.MCPServer) bool {
			now = s
			return changed(last, s)
		})
		if err != nil {
			return
		}
		for i, s := range now {
			if last[i].State != event.MCPConnected || s.State == event.MCPConnected {
				continue
			}
			what := "restarting it"
			if s.State == event.MCPFailed {
				what = "its tools are left out"
			}
			fmt.Fprintf(stderr, "baton: MCP server %s exited: %s; %s\n", s.Name, s.Error, what)
		}
		last = now
	}
}

// changed reports whether any server changed state.
func changed(before, after []event.MCPServer) bool {
	for i := range after {
		if before[i].State != after[i].State {
			return true
		}
	}
	return false
}

// close ends the watcher and every server process.
func (r *mcpRun) close() {
	if r == nil {
		return
	}
	if r.watch != nil {
		r.watch()
		<-r.watched
	}
	r.m.Close()
}

// lockedWriter serialises writes, so the MCP watcher and the headless
// printer can share stderr.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// Write implements io.Writer.
func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
