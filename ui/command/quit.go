package command

import tea "github.com/charmbracelet/bubbletea"

func init() {
	register(Command{Name: "quit", Desc: "leave baton", Run: func(*Env, string) tea.Cmd { return Do(Result{Quit: true}) }})
}
