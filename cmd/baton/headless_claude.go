package main

import (
	"fmt"
	"io"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/config"
	"github.com/seed-e4e525a6/baton/ui"
)

// sessionInfo completes what Claude Code's init message says with the
// session's own facts: its id (a fresh one when nothing is recorded, so
// every message still names its session), model, tools and servers.
func sessionInfo(s *engine.Session, ecfg engine.Config, info claudeInfo) claudeInfo {
	info.sessionID = s.ID()
	if info.sessionID == "" {
		info.sessionID = newUUID()
	}
	info.model = s.Model()
	info.cwd = ecfg.Workspace
	info.tools = s.ToolNames()
	info.mcp = s.MCPServers()
	info.sandbox = ecfg.Sandbox.Label()
	return info
}

// claudePermissionMode is Claude Code's name for how the run decides
// calls: bypassPermissions for --yolo, else the mode asked for, else
// default (refuse what no rule allows, as Claude Code's -p does).
func claudePermissionMode(cfg config.Config, flags flagValues) string {
	switch {
	case cfg.Yolo:
		return permBypass
	case flags.claude.permissionMode != "":
		return flags.claude.permissionMode
	}
	return permDefault
}

// expandCommand runs a prompt that calls a custom slash command the way
// the TUI does: "/name args" becomes the command's prompt. A name the TUI
// keeps for a command of its own, or one no command file has, is sent as
// typed. notes say what the person should know.
func expandCommand(prompt string, cmds []agenttypes.Command, types []agenttypes.Type, model string) (string, []string) {
	name, args, ok := agenttypes.CommandLine(prompt)
	if !ok {
		return prompt, nil
	}
	if ui.BuiltinCommand(name) {
		return prompt, []string{fmt.Sprintf("/%s is a command of the TUI; sent to the model as typed", name)}
	}
	c, found := agenttypes.FindCommand(cmds, name)
	if !found {
		return prompt, nil
	}
	expanded, note := c.Prompt(args, types)
	var notes []string
	if note != "" {
		notes = append(notes, note)
	}
	if !c.Subtask && c.Model != "" {
		notes = append(notes, fmt.Sprintf("/%s names model %s; this run stays on %s (--model switches)", c.Name, c.Model, model))
	}
	return expanded, notes
}

// headlessRun is what the command line asks of a headless run.
func (inv *invocation) headlessRun(setup sessionSetup, stdin io.Reader) headlessRun {
	run := headlessRun{prompt: inv.prompt, format: inv.flags.format, noWait: inv.flags.noWait, self: thisProgram(inv.env),
		commands: setup.commands, types: setup.engine.Types.All(),
		print: printOptions{verbose: inv.flags.claude.verbose, partial: inv.flags.claude.partial}}
	if inv.flags.claude.inputFormat == inputStreamJSON {
		run.input = stdin
	}
	info := &run.print.info
	info.permissionMode = claudePermissionMode(inv.cfg, inv.flags)
	info.version = version()
	for _, t := range run.types {
		if !t.Hidden && !t.Disabled {
			info.agents = append(info.agents, t.Name)
		}
	}
	for _, c := range setup.commands {
		if !ui.BuiltinCommand(c.Name) {
			info.commands = append(info.commands, c.Name)
		}
	}
	// The servers have settled by now: their prompts are commands too.
	if prompts := setup.mcp.prompts(); prompts != nil {
		for _, p := range prompts() {
			info.commands = append(info.commands, p.Command)
		}
	}
	return run
}
