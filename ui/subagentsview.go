package ui

import (
	"strings"

	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// subagentsList writes every child of the session as a table into the
// conversation.
func (m *Model) subagentsList() {
	if len(m.agents.All()) == 0 {
		m.status.Set(status.Info, "no sub-agent has run in this session")
		return
	}
	m.conv.add(&tableBlock{overlay.Subagents(m.agents.All())})
	m.conv.toBottom()
}

// subagentsInfo writes everything known about one child into the
// conversation.
func (m *Model) subagentsInfo(rest string) {
	if len(strings.Fields(rest)) > 1 {
		m.status.Set(status.Error, "/subagents info takes one id or number")
		return
	}
	p, ok := m.child("info", rest)
	if !ok {
		return
	}
	m.conv.add(&note{kind: noteInfo, text: overlay.ChildInfo(p.Info())})
	m.conv.toBottom()
}

// tableBlock is a table in the conversation, laid out at the width it is
// drawn at.
type tableBlock struct{ table overlay.Table }

func (b *tableBlock) render(rc *renderCtx, width int) []string {
	return b.table.Lines(rc.styles, width)
}
