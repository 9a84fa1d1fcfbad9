package agenttypes

import (
	"slices"
	"strings"
)

// ToolInfo is what the program knows about one of baton's tools before
// the engine builds it: its name, what it may do, how an agent comes to
// have it, and the names other agents give it. The engine builds exactly
// the tools of the table (a test in engine holds them together), so
// adding a tool is one entry here and its file in engine/tools.
type ToolInfo struct {
	Name string
	Kind ToolKind
	// Offer says how an agent comes to have the tool.
	Offer ToolOffer
	// Claude are Claude Code's names for the tool, the one it uses today
	// first: its permission rules, hook matchers, skills' allowed-tools
	// and agent files name tools so.
	Claude []string
	// OpenCode are OpenCode's names for the tool in an agent file's
	// tools.
	OpenCode []string
	// OpenCodePermissions are the keys of OpenCode's permission block
	// that govern the tool (its edit covers every tool that changes a
	// file).
	OpenCodePermissions []string
	// MCP tools are built by the MCP servers' manager, and exist while a
	// connected server offers what they read; the engine builds the
	// others.
	MCP bool
}

// ToolKind is what a tool may touch.
type ToolKind int

// The kinds of tools.
const (
	// Reads reads the workspace and changes nothing.
	Reads ToolKind = iota
	// Writes changes files in the workspace.
	Writes
	// Runs runs commands.
	Runs
	// Fetches reaches the network.
	Fetches
	// Consults reads what an MCP server offers and changes nothing.
	Consults
	// Converses changes nothing but the conversation: the task list, a
	// loaded skill, what is known of sub-agents.
	Converses
	// Delegates starts sub-agents.
	Delegates
)

// ReadOnly reports whether tools of the kind change nothing, so they run
// without asking: what each tool's ReadOnly says.
func (k ToolKind) ReadOnly() bool { return k == Reads || k == Converses || k == Consults }

// ToolOffer is how an agent comes to have a tool.
type ToolOffer int

// The ways a tool is offered.
const (
	// ByDefault tools are in every type that lists no tools of its own.
	ByDefault ToolOffer = iota
	// OnRequest tools only in a type or agent file that names them.
	OnRequest
	// ByEngine tools are given by the engine from the session's state
	// (the delegation depth, skills on offer); no type names them.
	ByEngine
)

// toolTable is every tool baton has, in the order the model is offered
// them.
var toolTable = []ToolInfo{
	{Name: "read_file", Kind: Reads, Claude: []string{"Read"}, OpenCode: []string{"read"}, OpenCodePermissions: []string{"read"}},
	{Name: "list_files", Kind: Reads, Claude: []string{"LS"}, OpenCode: []string{"list"}, OpenCodePermissions: []string{"list"}},
	{Name: "find_files", Kind: Reads, Claude: []string{"Glob"}, OpenCode: []string{"glob"}, OpenCodePermissions: []string{"glob"}},
	{Name: "grep", Kind: Reads, Claude: []string{"Grep"}, OpenCode: []string{"grep"}, OpenCodePermissions: []string{"grep"}},
	{Name: "write_file", Kind: Writes, Claude: []string{"Write"}, OpenCode: []string{"write"}, OpenCodePermissions: []string{"edit", "write"}},
	{Name: "edit_file", Kind: Writes, Claude: []string{"Edit", "MultiEdit"}, OpenCode: []string{"edit", "patch"}, OpenCodePermissions: []string{"edit"}},
	{Name: "run_command", Kind: Runs, Claude: []string{"Bash"}, OpenCode: []string{"bash"}, OpenCodePermissions: []string{"bash"}},
	{Name: "todo_write", Kind: Converses, Claude: []string{"TodoWrite"}, OpenCode: []string{"todowrite"}, OpenCodePermissions: []string{"todowrite"}},
	// web_fetch reaches the network, so no default and no built-in type
	// includes it.
	{Name: "web_fetch", Kind: Fetches, Offer: OnRequest, Claude: []string{"WebFetch"}, OpenCode: []string{"webfetch"}, OpenCodePermissions: []string{"webfetch"}},
	// They read the resources of MCP servers; a sub-agent gets them only
	// when its type names them, like a server's own tools.
	{Name: "list_mcp_resources", Kind: Consults, Offer: OnRequest, Claude: []string{"ListMcpResourcesTool"}, MCP: true},
	{Name: "read_mcp_resource", Kind: Consults, Offer: OnRequest, Claude: []string{"ReadMcpResourceTool"}, MCP: true},
	{Name: TaskTool, Kind: Delegates, Offer: ByEngine, Claude: []string{"Task", "Agent"}},
	{Name: "task_status", Kind: Converses, Offer: ByEngine},
	{Name: "task_wait", Kind: Converses, Offer: ByEngine},
	{Name: "skill", Kind: Converses, Offer: ByEngine, Claude: []string{"Skill"}},
}

// Tools returns the tool table, in the order the model is offered the
// tools; the caller may modify the copy.
func Tools() []ToolInfo {
	out := slices.Clone(toolTable)
	for i := range out {
		out[i].Claude = slices.Clone(out[i].Claude)
		out[i].OpenCode = slices.Clone(out[i].OpenCode)
		out[i].OpenCodePermissions = slices.Clone(out[i].OpenCodePermissions)
	}
	return out
}

// toolNames lists the names of the tools keep accepts, in table order.
func toolNames(keep func(ToolInfo) bool) []string {
	var out []string
	for _, t := range toolTable {
		if keep(t) {
			out = append(out, t.Name)
		}
	}
	return out
}

// ReadOnlyTools are the tools that cannot change the workspace; the
// explore, plan and review types get exactly these.
var ReadOnlyTools = toolNames(func(t ToolInfo) bool { return t.Kind == Reads })

// BaseTools are the tools a sub-agent gets by default, in the order they
// are offered. An agent file without a tools field gets all of them, as
// in Claude Code; writes and commands still go through permissions.
var BaseTools = toolNames(func(t ToolInfo) bool { return t.Offer == ByDefault })

// GrantedTools are tools of baton's own a sub-agent gets only when its
// type or agent file names them (web_fetch, which OpenCode gives every
// agent).
var GrantedTools = toolNames(func(t ToolInfo) bool { return t.Offer == OnRequest && !t.MCP })

// mcpResourceTools read the resources of MCP servers; like a server's
// own tools, a sub-agent gets them only when its type names them.
var mcpResourceTools = toolNames(func(t ToolInfo) bool { return t.MCP })

// AllTools are every tool an agent type may name: BaseTools, then
// GrantedTools and the MCP resource tools.
var AllTools = slices.Concat(BaseTools, GrantedTools, mcpResourceTools)

// ConversationTools change nothing but the conversation (the task list,
// loading a skill, asking after sub-agents).
var ConversationTools = toolNames(func(t ToolInfo) bool { return t.Kind == Converses })

// harmlessTools are what an untrusted project's agent may grant: the
// tools an agent type may name that read, or change nothing but the
// agent's own conversation.
var harmlessTools = toolNames(func(t ToolInfo) bool {
	return t.Offer != ByEngine && (t.Kind == Reads || t.Kind == Converses)
})

// toolAliases maps the tool names of Claude Code and OpenCode, lowercased,
// to baton's, so agent files written for them work unchanged.
var toolAliases = func() map[string]string {
	out := map[string]string{}
	for _, t := range toolTable {
		if t.Offer == ByEngine {
			continue // no agent file names these
		}
		for _, name := range slices.Concat(t.Claude, t.OpenCode) {
			out[strings.ToLower(name)] = t.Name
		}
	}
	return out
}()

// permissionTools maps OpenCode's permission keys to the baton tools they
// govern: first the tool OpenCode itself calls by the key, then the
// others it covers (edit: edit_file, then write_file). Keys for tools
// baton lacks (task, websearch, lsp, skill, an MCP pattern) are ignored,
// as those tools are.
var permissionTools = func() map[string][]string {
	out := map[string][]string{}
	for _, own := range []bool{true, false} {
		for _, t := range toolTable {
			for _, key := range t.OpenCodePermissions {
				if slices.Contains(t.OpenCode, key) == own {
					out[key] = append(out[key], t.Name)
				}
			}
		}
	}
	return out
}()
