package ui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/command"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// BuiltinCommand reports whether name is one of the TUI's own commands,
// which win over a custom command of the same name (headless runs send
// those to the model as typed).
func BuiltinCommand(name string) bool { return command.Builtin(name) }

// newCommands makes the slash commands' registry over the UI's parts;
// what a command needs of the moment (busy, the model) it is given
// when it runs.
func newCommands(m *Model) *command.Registry {
	o, keys, in := m.opts, m.keys, m.input
	return command.New(command.Env{
		Session: m.session, Status: m.status, Agents: m.agents, Layers: m.layers, Styles: m.styles,
		Answers: m.conv.Answers,
		Keys:    func() []overlay.KeyGroup { return allKeys(keys, in) },
		Options: command.Options{
			Version: o.Version, SandboxInfo: o.SandboxInfo, SubagentSandboxInfo: o.SubagentSandboxInfo, Types: o.Types, TypeWarnings: o.TypeWarnings, ModelOf: o.ModelOf,
			Models: o.Models, CheckModel: o.CheckModel, SaveRules: o.SaveRules, Copy: o.Terminal.Copy, Custom: o.Commands,
			MCPPrompts: o.MCPPrompts, Trust: o.Trust,
			Sessions: o.Sessions, SessionID: m.session.ID(), Resume: resumeCmd(o.Resume),
		},
	})
}

// commandDone does what a command left to the root, in Result's order.
func (m *Model) commandDone(r command.Result) tea.Cmd {
	var cmd tea.Cmd
	if p, ok := themes.ByName(r.Theme); ok {
		m.applyTheme(p)
	}
	if r.Model != "" {
		cmd = m.setModel(r.Model)
	}
	if r.Cleared {
		m.conv.Reset()
		m.todos = nil
		m.status.Set(status.Info, "new conversation")
	}
	switch {
	case r.Note != "":
		m.conv.Note(r.Note)
	case r.Block != nil:
		m.conv.Block(r.Block)
	}
	if r.Submit != "" {
		if m.busy {
			return tea.Batch(cmd, m.prompt(r.Submit, r.Queued))
		}
		cmd = tea.Batch(cmd, m.prompt(r.Submit, r.Queued))
	}
	if r.Say != "" {
		m.status.Set(r.Level, r.Say)
	}
	if r.Quit {
		cmd = tea.Batch(cmd, m.quitOrAsk())
	}
	return cmd
}

// prompt sends text as the person's prompt, or queues it while a turn
// runs (queued names what was, for the status line: "/init").
func (m *Model) prompt(text, queued string) tea.Cmd {
	if m.busy {
		m.input.Enqueue(text)
		m.status.SetTransient(status.Info, strings.TrimSpace(queued+" queued; it is sent when the turn ends"), status.Turn, "")
		return nil
	}
	m.conv.ToBottom()
	return m.submit(text)
}
