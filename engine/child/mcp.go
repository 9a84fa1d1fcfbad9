package child

import (
	"slices"
	"strings"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

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

// childMCPTools are the connected MCP tools a child of typ gets: only
// those its type lists, by exact name or mcp__SERVER__*, and that the
// session's sub-agent policy lets through. They are resolved when the
// child is built, so its approval card shows exactly what it gets; they
// stay with the session, whatever runner places the child.
func (m *Manager) childMCPTools(listed []string) []tools.Tool {
	if m.opts.MCPTools == nil {
		return nil
	}
	var out []tools.Tool
	for _, t := range m.opts.MCPTools() {
		name := t.Name()
		if !listsTool(listed, name) || listsTool(m.opts.SubagentDeny, name) {
			continue
		}
		if len(m.opts.SubagentAllow) > 0 && !listsTool(m.opts.SubagentAllow, name) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// offeredTools are the tools of typ that a child of it really gets, as
// the task tool's description lists them: what the sub-agent policy lets
// through, and MCP tools only of servers that are configured, so the
// model never plans around a tool no child will have.
func (m *Manager) offeredTools(typ agenttypes.Type) []string {
	var servers []event.MCPServer
	if m.opts.MCPServers != nil {
		servers = m.opts.MCPServers()
	}
	var out []string
	for _, name := range typ.Tools {
		if name == TaskToolName || listsTool(m.opts.SubagentDeny, name) || len(m.opts.SubagentAllow) > 0 && !listsTool(m.opts.SubagentAllow, name) {
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

// serverOf is what MCP tools tell of the server they call.
type serverOf interface{ Server() string }

// instructions is what the MCP servers whose tools the child has add to
// its system prompt, read at each request (nil: none).
func (m *Manager) instructions(spec Spec) func() string {
	if m.opts.MCPInstructions == nil {
		return nil
	}
	servers := map[string]bool{}
	for _, t := range spec.Parent {
		if s, ok := t.(serverOf); ok {
			servers[s.Server()] = true
		}
	}
	return m.opts.MCPInstructions(func(server string) bool { return servers[server] })
}
