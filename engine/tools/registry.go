package tools

import (
	"slices"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/sandbox"

	openai "github.com/sashabaranov/go-openai"
)

// build is what the built-in tools are built from: the workspace, the
// limits (defaults filled), the sandbox run_command uses and web_fetch's
// options (nil: no web_fetch).
type build struct {
	ws    *Workspace
	lim   Limits
	box   sandbox.Policy
	fetch *WebFetchOptions
}

// builders make the built-in tools by name; each tool's file registers
// its own, and agenttypes' tool table orders them, so adding a tool is
// its table entry and its file (engine's and this package's tests fail
// if either is missing). A builder reports false for a tool the session
// does not have (web_fetch without its options).
var builders = map[string]func(build) (Tool, bool){}

// register adds a built-in tool's builder.
func register(name string, b func(build) (Tool, bool)) { builders[name] = b }

// Builtin returns every built-in tool bound to a workspace, limits, the
// sandbox run_command uses and, when fetch is set, web_fetch with those
// options, in the order of agenttypes' tool table, which is the order
// the model sees them. Zero limits take defaults.
func Builtin(ws *Workspace, lim Limits, box sandbox.Policy, fetch *WebFetchOptions) []Tool {
	return built(build{ws: ws, lim: lim.withDefaults(), box: box, fetch: fetch}, func(agenttypes.ToolInfo) bool { return true })
}

// Base returns the built-in tools that work on the workspace (they read,
// write or run), without todo_write and web_fetch.
func Base(ws *Workspace, lim Limits, box sandbox.Policy) []Tool {
	return built(build{ws: ws, lim: lim.withDefaults(), box: box}, func(info agenttypes.ToolInfo) bool {
		return info.Kind == agenttypes.Reads || info.Kind == agenttypes.Writes || info.Kind == agenttypes.Runs
	})
}

// built makes the registered tools keep accepts, in table order.
func built(b build, keep func(agenttypes.ToolInfo) bool) []Tool {
	var out []Tool
	for _, info := range agenttypes.Tools() {
		newTool, ok := builders[info.Name]
		if !ok || !keep(info) {
			continue
		}
		if t, ok := newTool(b); ok {
			out = append(out, t)
		}
	}
	return out
}

// Set is an ordered collection of tools with unique names: what one agent
// is allowed. It is immutable; the filters return new sets, so a parent's
// set is never changed by narrowing it for a child.
type Set struct {
	tools []Tool
}

// NewSet collects tools in order; a later tool replaces an earlier one of
// the same name.
func NewSet(ts ...Tool) *Set {
	s := &Set{}
	for _, t := range ts {
		s = s.With(t)
	}
	return s
}

// Get finds a tool by name; execution uses it to re-check that a call
// names a tool the agent was given.
func (s *Set) Get(name string) (Tool, bool) {
	if s == nil {
		return nil, false
	}
	i := slices.IndexFunc(s.tools, func(t Tool) bool { return t.Name() == name })
	if i < 0 {
		return nil, false
	}
	return s.tools[i], true
}

// Names lists the tool names in order.
func (s *Set) Names() []string {
	names := make([]string, 0, len(s.Tools()))
	for _, t := range s.Tools() {
		names = append(names, t.Name())
	}
	return names
}

// Tools returns the tools in order, as a copy the caller may keep.
func (s *Set) Tools() []Tool {
	if s == nil {
		return nil
	}
	return slices.Clone(s.tools)
}

// Only keeps the tools whose names are listed, in the set's order; names
// the set lacks are ignored, so a type's tool list may name tools a
// particular run does not offer.
func (s *Set) Only(names []string) *Set {
	return s.filter(func(t Tool) bool { return slices.Contains(names, t.Name()) })
}

// Without drops the named tools.
func (s *Set) Without(names ...string) *Set {
	return s.filter(func(t Tool) bool { return !slices.Contains(names, t.Name()) })
}

// With returns the set plus t, replacing a tool of the same name in place.
func (s *Set) With(t Tool) *Set {
	ts := s.Tools()
	if i := slices.IndexFunc(ts, func(u Tool) bool { return u.Name() == t.Name() }); i >= 0 {
		ts[i] = t
	} else {
		ts = append(ts, t)
	}
	return &Set{tools: ts}
}

// filter returns a new set of the tools keep accepts.
func (s *Set) filter(keep func(Tool) bool) *Set {
	var ts []Tool
	for _, t := range s.Tools() {
		if keep(t) {
			ts = append(ts, t)
		}
	}
	return &Set{tools: ts}
}

// ToOpenAI converts tools to go-openai function definitions for a chat
// completion request; the schema is passed through as raw JSON.
func ToOpenAI(ts []Tool) []openai.Tool {
	out := make([]openai.Tool, 0, len(ts))
	for _, t := range ts {
		out = append(out, openai.Tool{
			Type: openai.ToolTypeFunction,
			Function: &openai.FunctionDefinition{
				Name:        t.Name(),
				Description: t.Description(),
				Parameters:  t.Schema(),
			},
		})
	}
	return out
}
