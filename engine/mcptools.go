package engine

import (
	"context"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// MCPSource is what a session needs of the MCP servers (an
// *mcp.Manager): the tools of the servers connected now, and a status per
// server for /mcp.
type MCPSource interface {
	Tools() []tools.Tool
	Statuses() []event.MCPServer
}

// MCPServers is the status of every configured MCP server, for /mcp.
func (s *Session) MCPServers() []event.MCPServer {
	if s.cfg.MCP == nil {
		return nil
	}
	return s.cfg.MCP.Statuses()
}

// MCPServerAsk is an MCP server of an untrusted folder that wants to
// start, as its card shows it.
type MCPServerAsk struct {
	Name, Source string
	// Command is the command line or URL, exactly as it would run.
	Command string
	// TrustFolder, when set, records the folder as trusted the way
	// `baton trust` does and says so; the card then offers it.
	TrustFolder func() (said string, err error)
}

// ApproveMCPServer asks the person whether a server from an untrusted
// project may start, showing its command line on a card; it waits for the
// answer or the end of ctx or the session. An answer that trusts the
// folder records it through ask.TrustFolder (what was done, or why not,
// is told) and starts the server. cmd hands it to the MCP manager, which
// calls it from the server's own goroutine.
func (s *Session) ApproveMCPServer(ctx context.Context, ask MCPServerAsk) bool {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return false
	}
	// Counted like a turn, so the event channel stays open while asking.
	s.turns.Add(1)
	s.mu.Unlock()
	defer s.turns.Done()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(s.ctx, cancel)()
	req := s.perms.Request(event.ApproveMCPServer)
	req.Tool = "MCP server " + ask.Name
	req.Server = &event.ServerPreview{Name: ask.Name, Command: ask.Command, Source: ask.Source, CanTrust: ask.TrustFolder != nil}
	main := permission.Who{Meta: event.Meta{Agent: event.MainAgent}, Emit: s.emit}
	switch s.perms.Ask(ctx, main, req).Decision {
	case event.Allow:
		return true
	case event.AllowAlways:
		if ask.TrustFolder == nil {
			return true
		}
		said, err := ask.TrustFolder()
		if err != nil {
			said = "could not trust this folder: " + err.Error() + "; " + ask.Name + " starts this once"
		}
		s.emit(event.Notice{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Text: said})
		return true
	}
	return false
}

// mcpTools is the main agent's source of live MCP tools (nil without
// servers).
func (s *Session) mcpTools() func() []tools.Tool {
	if s.cfg.MCP == nil {
		return nil
	}
	return s.cfg.MCP.Tools
}
