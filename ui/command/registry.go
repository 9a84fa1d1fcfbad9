package command

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/status"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// builtinCommands are baton's own commands, each declared in its file.
// They are gathered here, on first use, rather than each file adding
// its own as the program starts: sixteen init functions spread over the
// package's code brought three 64 KiB pieces of it into memory at every
// start, the headless ones that never read a command too (issue 33).
func builtinCommands() []Command {
	return []Command{
		agentsCommand(),
		clearCommand(),
		compactCommand(),
		copyCommand(),
		helpCommand(),
		hooksCommand(),
		initCommand(),
		mcpCommand(),
		modelCommand(),
		permissionsCommand(),
		quitCommand(),
		resumeCommand(),
		sessionsCommand(),
		skillsCommand(),
		subagentsCommand(),
		themeCommand(),
		trustCommand(),
	}
}

// builtins returns baton's own commands by name, gathered once.
func builtins() map[string]Command {
	builtinsOnce.Do(func() {
		builtinsByName = map[string]Command{}
		for _, c := range builtinCommands() {
			builtinsByName[c.Name] = c
		}
	})
	return builtinsByName
}

// builtinsOnce and builtinsByName hold them (a zero sync.Once costs
// nothing at start).
var (
	builtinsOnce   sync.Once
	builtinsByName map[string]Command
)

// Builtin reports whether name is one of baton's own commands, which win
// over a custom command of the same name.
func Builtin(name string) bool {
	_, ok := builtins()[name]
	return ok
}

// order is the order /help and the popup list the built-ins in, the most
// used first; a command not named here comes after these, by name.
var order = []string{"help", "clear", "model", "theme", "subagents", "agents", "permissions", "init", "quit", "mcp", "skills", "hooks", "compact", "copy"}

// Registry is the commands of one UI: the built-ins and its custom
// commands, with the Env they run in.
type Registry struct {
	env  Env
	list []Command // the built-ins, in help order
}

// New makes the registry the UI runs its commands from; env.Options'
// custom commands are cleaned here, where they enter the UI.
func New(env Env) *Registry {
	r := &Registry{env: env}
	r.env.registry = r
	r.env.Options.Custom = cleanCustom(env.Options.Custom)
	for _, c := range builtins() {
		r.list = append(r.list, c)
	}
	rank := func(name string) int {
		if i := slices.Index(order, name); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortFunc(r.list, func(a, b Command) int {
		if d := rank(a.Name) - rank(b.Name); d != 0 {
			return d
		}
		return strings.Compare(a.Name, b.Name)
	})
	return r
}

// Builtins are baton's own commands, in the order help lists them.
func (r *Registry) Builtins() []Command { return r.list }

// Custom are the custom commands, cleaned.
func (r *Registry) Custom() []agenttypes.Command { return r.env.Options.Custom }

// Run runs a line that starts with "/": a built-in, else a custom command
// of that name, else a connected MCP server's prompt. busy and model are
// the moment's state.
func (r *Registry) Run(line string, busy bool, model string) tea.Cmd {
	env := r.env
	env.Busy, env.Model = busy, model
	name, arg, _ := strings.Cut(strings.TrimPrefix(line, "/"), " ")
	arg = strings.TrimSpace(arg)
	env.Status.CommandRan()
	if c, ok := builtins()[name]; ok {
		return c.Run(&env, arg)
	}
	if c, ok := r.custom(name); ok {
		return runCustom(&env, c, arg)
	}
	if strings.HasPrefix(name, mcpCommandPrefix) {
		return runMCPPrompt(&env, name, line)
	}
	env.Status.Set(status.Error, fmt.Sprintf("unknown command /%s; /help lists the commands", termtext.Clean(name)))
	return nil
}

// Complete lists what the box could become: the commands whose names
// start with what was typed after "/", or once a command is named, what
// it completes after its name.
func (r *Registry) Complete(value string) []input.Candidate {
	if !strings.HasPrefix(value, "/") || strings.Contains(value, "\n") {
		return nil
	}
	if name, rest, named := strings.Cut(value[1:], " "); named {
		if c, ok := builtins()[name]; ok && c.Complete != nil {
			return c.Complete(&r.env, rest)
		}
		return nil
	}
	var out []input.Candidate
	for _, c := range r.list {
		if strings.HasPrefix("/"+c.Name, value) {
			text, complete := "/"+c.Name, c.Args == ""
			if !complete {
				text += " "
			}
			label := strings.TrimSpace("/" + c.Name + " " + c.Args)
			out = append(out, input.Candidate{Label: label, Text: text, Desc: c.Desc, Complete: complete})
		}
	}
	return slices.Concat(out, customCompletions(value, r.env.Options.Custom), mcpCompletions(value, r.env.Options.MCPPrompts))
}

// custom finds the custom command a line names; a built-in hides a
// custom command of its name.
func (r *Registry) custom(name string) (agenttypes.Command, bool) {
	if Builtin(name) {
		return agenttypes.Command{}, false
	}
	return agenttypes.FindCommand(r.env.Options.Custom, name)
}
