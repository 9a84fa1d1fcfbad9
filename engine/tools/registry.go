package tools

import (
	"slices"

	"github.com/seed-e4e525a6/baton/engine/sandbox"

	openai "github.com/sashabaranov/go-openai"
)

// Base returns the seven built-in tools bound to a workspace, limits and
// the sandbox run_command uses, in the stable order the model sees them.
// Zero limits take defaults.
func Base(ws *Workspace, lim Limits, box sandbox.Policy) []Tool {
	lim = lim.withDefaults()
	return []Tool{
		readFile{ws: ws, lim: lim},
		listFiles{ws: ws, lim: lim},
		findFiles{ws: ws, lim: lim},
		grep{ws: ws, lim: lim},
		writeFile{ws: ws},
		editFile{ws: ws},
		runCommand{ws: ws, lim: lim, box: box},
	}
}

// Builtin returns every built-in tool: Base, then todo_write and, when
// fetch is set, web_fetch with those options.
func Builtin(ws *Workspace, lim Limits, box sandbox.Policy, fetch *WebFetchOptions) []Tool {
	all := append(Base(ws, lim, box), TodoWrite{})
	if fetch != nil {
		all = append(all, NewWebFetch(*fetch, lim))
	}
	return all
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
