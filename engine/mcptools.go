package engine

import (
	"context"

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

// ApproveMCPServer asks the person whether a server from an untrusted
// project may start, showing its command line on a card; it waits for the
// answer or the end of ctx or the session. cmd hands it to the MCP
// manager, which calls it from the server's own goroutine.
func (s *Session) ApproveMCPServer(ctx context.Context, name, source, target string) bool {
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
	req := s.perms.Request(event.ApproveTool)
	req.Tool = "MCP server " + name
	req.Preview = target + "\n\nfrom " + source + " in a folder you have not trusted; `baton trust` trusts its servers for good"
	return s.perms.Ask(ctx, permission.Who{Meta: event.Meta{Agent: event.MainAgent}, Emit: s.emit}, req).Decision != event.Deny
}

// mcpTools is the main agent's source of live MCP tools (nil without
// servers).
func (s *Session) mcpTools() func() []tools.Tool {
	if s.cfg.MCP == nil {
		return nil
	}
	return s.cfg.MCP.Tools
}
