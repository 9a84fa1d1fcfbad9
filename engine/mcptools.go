package engine

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// MCPSource is what a session needs of the MCP servers (an
// *mcp.Manager): the tools of the servers connected now, and a status per
// server for /mcp.
type MCPSource interface {
	Tools() []tools.Tool
	Statuses() []event.MCPServer
}

// mcpPrefix starts every MCP tool name: mcp__SERVER__TOOL.
const mcpPrefix = "mcp__"

// matchesTool reports whether a tool-list entry names tool: the exact
// name, or an mcp__ entry ending in '*' that is a prefix of it
// (mcp__github__* for every tool of the github server).
func matchesTool(entry, tool string) bool {
	if entry == tool {
		return true
	}
	prefix, isPattern := strings.CutSuffix(entry, "*")
	return isPattern && strings.HasPrefix(prefix, mcpPrefix) && strings.HasPrefix(tool, prefix)
}

// listsTool reports whether any entry of list names tool.
func listsTool(list []string, tool string) bool {
	for _, entry := range list {
		if matchesTool(entry, tool) {
			return true
		}
	}
	return false
}

// offeredTools are the tools of typ that a child of it really gets, as
// the task tool's description lists them: what the sub-agent policy lets
// through, and MCP tools only of servers that are configured, so the
// model never plans around a tool no child will have.
func (d *delegator) offeredTools(typ agenttypes.Type) []string {
	var servers []event.MCPServer
	if d.s.cfg.MCP != nil {
		servers = d.s.cfg.MCP.Statuses()
	}
	var out []string
	for _, name := range typ.Tools {
		if name == TaskToolName || listsTool(d.policyDeny, name) || len(d.policyAllow) > 0 && !listsTool(d.policyAllow, name) {
			continue
		}
		if strings.HasPrefix(name, mcpPrefix) && !slices.ContainsFunc(servers, func(s event.MCPServer) bool {
			return strings.HasPrefix(name, mcpPrefix+s.Name+"__")
		}) {
			continue
		}
		out = append(out, name)
	}
	return out
}

// toolSet is the agent's fixed set plus the MCP tools connected now:
// the main agent sees servers that finish starting after the session did.
func (a *Agent) toolSet() *tools.Set {
	if a.liveTools == nil {
		return a.tools
	}
	return tools.NewSet(append(a.tools.Tools(), a.liveTools()...)...)
}

// childMCPTools are the connected MCP tools a child of typ gets: only
// those its type lists, by exact name or mcp__SERVER__*, and that the
// session's sub-agent policy lets through. They are resolved when the
// child is built, so its approval card shows exactly what it gets.
func (d *delegator) childMCPTools(listed []string) []tools.Tool {
	if d.s.cfg.MCP == nil {
		return nil
	}
	var out []tools.Tool
	for _, t := range d.s.cfg.MCP.Tools() {
		name := t.Name()
		if !listsTool(listed, name) || listsTool(d.policyDeny, name) {
			continue
		}
		if len(d.policyAllow) > 0 && !listsTool(d.policyAllow, name) {
			continue
		}
		out = append(out, t)
	}
	return out
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
	req := event.NewApprovalRequest(s.ids.approval(), event.ApproveMCPServer)
	req.Tool = "MCP server " + ask.Name
	req.Server = &event.ServerPreview{Name: ask.Name, Command: ask.Command, Source: ask.Source, CanTrust: ask.TrustFolder != nil}
	stamp := func() event.Meta { return event.Meta{Agent: event.MainAgent, Time: time.Now()} }
	switch s.perms.ask(ctx, s.emit, stamp, req, question{}).Decision {
	case event.Allow:
		return true
	case event.AllowAlways:
		// Trusting the folder starts its other servers waiting too.
		s.perms.waiting.settle(event.ApproveMCPServer, func(*question) bool { return true })
		if ask.TrustFolder == nil {
			return true
		}
		said, err := ask.TrustFolder()
		if err != nil {
			said = "could not trust this folder: " + err.Error() + "; " + ask.Name + " starts this once"
		}
		s.emit(event.Notice{Meta: stamp(), Text: said})
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
