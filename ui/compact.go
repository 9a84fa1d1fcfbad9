package ui

import (
	"fmt"

	"github.com/seed-e4e525a6/baton/ui/status"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// compactionStarted shows the work: a /compact holds the input like a
// turn; an automatic one, inside a turn, is announced.
func (m *Model) compactionStarted(ev event.CompactionStarted) tea.Cmd {
	m.status.Compacting(true, !ev.Auto)
	if ev.Auto {
		m.status.SetTransient(status.Warning, fmt.Sprintf("the context is %.0f%% full: compacting the conversation first", ev.Fill*100), status.Turn, "")
		return nil
	}
	m.setBusy(true)
	return m.clock.start()
}

// compacted ends a compaction; a /compact frees the input and sends what
// was queued meanwhile.
func (m *Model) compacted(ev event.Compacted) tea.Cmd {
	m.status.Compacting(false, false)
	switch {
	case ev.Error != "":
		m.status.Set(status.Error, "compact: "+ev.Error+"; the conversation is unchanged")
	case ev.Auto:
		m.status.Set(status.Info, "compacted the conversation to fit the context window")
	default:
		m.status.Set(status.Info, "compacted the conversation")
	}
	if ev.Auto {
		return nil
	}
	m.setBusy(false)
	if next, ok := m.input.Dequeue(); ok {
		return m.submit(next)
	}
	return nil
}
