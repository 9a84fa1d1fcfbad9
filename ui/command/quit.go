package command

import tea "github.com/charmbracelet/bubbletea"

// quitCommand is /quit.
func quitCommand() Command {
	return Command{Name: "quit", Desc: "leave baton", Run: func(*Env, string) tea.Cmd { return Do(Result{Quit: true}) }}
}
