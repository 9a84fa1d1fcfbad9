package command

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/status"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// trustCommand is /trust.
func trustCommand() Command {
	return Command{Name: "trust", Desc: "trust this folder, as baton trust does: its project settings apply", Run: trustFolder}
}

// trustFolder is /trust: the workspace goes on the person's trust list,
// as `baton trust` records it, and the conversation says what that means.
func trustFolder(env *Env, arg string) tea.Cmd {
	switch {
	case arg != "":
		env.Status.Set(status.Error, "trust: /trust takes no argument; it trusts this folder (baton trust DIR trusts another)")
		return nil
	case env.Options.Trust == nil:
		env.Status.Set(status.Error, "trust: there is no trust list to record it in (no state folder)")
		return nil
	}
	trust := env.Options.Trust
	return func() tea.Msg {
		said, err := trust()
		if err != nil {
			return status.Said{Level: status.Error, Text: termtext.Clean(fmt.Sprintf("trust: %v", err))}
		}
		return Result{Note: "/trust\n" + termtext.Clean(said)}
	}
}
