package command

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/status"
)

// clearCommand is /clear.
func clearCommand() Command {
	return Command{Name: "clear", Desc: "start a new conversation", Run: clearConversation}
}

// clearConversation starts a new conversation; the session refuses while
// a turn runs, so the command does too.
func clearConversation(env *Env, _ string) tea.Cmd {
	if env.Busy {
		env.Status.Set(status.Error, "clear: a turn is running; esc interrupts it first")
		return nil
	}
	s := env.Session
	return func() tea.Msg {
		if err := s.Clear(); err != nil {
			return status.Said{Level: status.Error, Text: fmt.Sprintf("clear: %v", err)}
		}
		return Result{Cleared: true}
	}
}
