package ui

import (
	"fmt"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// promptHistory is the box's history before the first key: the
// project's prompts from earlier runs, then the resumed session's own, so
// ↑ reaches this session's prompts first and the older project's after.
func promptHistory(project []string, resumed []event.Event) []string {
	var own []string
	for _, ev := range resumed {
		if t, ok := ev.(event.TurnStarted); ok && t.Agent == event.MainAgent && t.Prompt != "" {
			own = append(own, t.Prompt)
		}
	}
	var h []string
	for _, p := range project {
		if !slices.Contains(own, p) {
			h = appendNew(h, p)
		}
	}
	for _, p := range own {
		h = appendNew(h, p)
	}
	return h
}

// appendNew appends p unless it repeats the last entry.
func appendNew(h []string, p string) []string {
	if len(h) > 0 && h[len(h)-1] == p {
		return h
	}
	return append(h, p)
}

// remember keeps a sent prompt in the project's history for later runs
// with save. The write happens in a Cmd (it touches the disk); a failure
// is said once in the status line.
func remember(save func(string) error, text string) tea.Cmd {
	if save == nil || text == "" {
		return nil
	}
	return func() tea.Msg {
		if err := save(text); err != nil {
			return status.Said{Level: status.Error, Text: fmt.Sprintf("prompt history: %v", err)}
		}
		return nil
	}
}
