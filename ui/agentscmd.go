package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// initPrompt is what /init asks of the model.
const initPrompt = `Write an AGENTS.md file at the root of this project for the coding agents that will work in it.
First explore the repository (delegate parts of the exploration to sub-agents where that helps): the build files, the folder layout, the tests, and a few representative source files.
Then write AGENTS.md with: the exact commands to build, test and lint; the project layout (what each top-level folder holds); the code conventions and style you observed; and anything a newcomer would trip over.
Keep it short and factual. If an AGENTS.md already exists, improve it rather than starting over.`

// cmdInit asks the model to write AGENTS.md, like a typed prompt: sent
// now, or queued while a turn runs.
func (m *Model) cmdInit() tea.Cmd {
	if m.busy {
		m.input.Enqueue(initPrompt)
		m.status.SetTransient(status.Info, "/init queued; it is sent when the turn ends", status.Turn, "")
		return nil
	}
	m.conv.toBottom()
	return m.submit(initPrompt)
}

// cmdAgents writes every sub-agent type into the conversation.
func (m *Model) cmdAgents() {
	m.conv.add(&note{kind: noteInfo, text: overlay.AgentTypes(m.opts.Types, m.opts.TypeWarnings, m.opts.ModelOf)})
	m.conv.toBottom()
}
