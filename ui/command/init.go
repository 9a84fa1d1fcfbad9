package command

import tea "github.com/charmbracelet/bubbletea"

// initCommand is /init.
func initCommand() Command {
	return Command{Name: "init", Desc: "ask the model to write AGENTS.md for this project", Run: writeAgentsFile}
}

// initPrompt is what /init asks of the model.
const initPrompt = `Write an AGENTS.md file at the root of this project for the coding agents that will work in it.
First explore the repository (delegate parts of the exploration to sub-agents where that helps): the build files, the folder layout, the tests, and a few representative source files.
Then write AGENTS.md with: the exact commands to build, test and lint; the project layout (what each top-level folder holds); the code conventions and style you observed; and anything a newcomer would trip over.
Keep it short and factual. If an AGENTS.md already exists, improve it rather than starting over.`

// writeAgentsFile asks the model to write AGENTS.md, like a typed
// prompt: sent now, or queued while a turn runs.
func writeAgentsFile(*Env, string) tea.Cmd {
	return Do(Result{Submit: initPrompt, Queued: "/init"})
}
