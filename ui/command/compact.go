package command

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/status"
)

// compactCommand is /compact.
func compactCommand() Command {
	return Command{Name: "compact", Args: "[FOCUS]", Desc: "replace the conversation with a summary (keeping FOCUS)", Run: compact}
}

// compact is /compact [focus]: the session replaces the conversation
// with a summary; CompactionStarted and Compacted follow as events.
func compact(env *Env, focus string) tea.Cmd {
	if env.Busy {
		env.Status.Set(status.Error, "compact: a turn is running; esc interrupts it first")
		return nil
	}
	s := env.Session
	return func() tea.Msg {
		if err := s.Compact(focus); err != nil {
			return status.Said{Level: status.Error, Text: fmt.Sprintf("compact: %v", err)}
		}
		return nil
	}
}
