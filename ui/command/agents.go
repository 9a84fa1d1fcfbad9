package command

import (
	tea "github.com/charmbracelet/bubbletea"
)

// agentsCommand is /agents.
func agentsCommand() Command {
	return Command{Name: "agents", Desc: "list the sub-agent types", Run: agentTypes}
}

// agentTypes writes every sub-agent type into the conversation.
func agentTypes(env *Env, _ string) tea.Cmd {
	o := env.Options
	return Do(Result{Note: AgentTypes(o.Types, o.TypeWarnings, o.ModelOf)})
}
