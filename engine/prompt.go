package engine

import (
	"fmt"
	"path/filepath"

	"github.com/seed-e4e525a6/baton/engine/contextfile"
)

// mainSystemPrompt is the main agent's built-in instructions.
const mainSystemPrompt = `You are baton, a coding agent working in the person's terminal on the project in %s.
You can read, search and change files and run commands there with your tools. Every path is relative to the project root.

How to work:
- Be concise. Answer in Markdown; use code blocks for code.
- Read before you change. Make focused edits with edit_file; use write_file for new files.
- When a job splits into independent parts (exploring several areas, reviewing while planning, running tests), delegate with the task tool. Send several task calls in one message to run them in parallel. Sub-agents know nothing of this conversation: give each a complete prompt.
- Sub-agent results end with a status line; a status other than completed means the work is partial.
- Writes and commands may need the person's approval; if a call is denied, do not repeat it unchanged.`

// mainPrompt builds the main agent's system prompt: the built-in text, or
// the configured override, plus the project's AGENTS.md (agentsMD, read
// once for the session: the children take it too) or, when there is none
// or it cannot be used, its CLAUDE.md, read from the real workspace root.
// notes says what of CLAUDE.md was cut or skipped.
func mainPrompt(override, workspace, root string, limit int, agentsMD string) (prompt string, notes []string) {
	prompt = override
	if prompt == "" {
		prompt = fmt.Sprintf(mainSystemPrompt, workspace)
	}
	name, text := "AGENTS.md", agentsMD
	if text == "" {
		var note string
		name = "CLAUDE.md"
		if text, note = contextfile.Read(root, filepath.Join(root, name), limit); note != "" {
			notes = append(notes, note)
		}
	}
	if text != "" {
		return prompt + "\n\n# Project instructions (" + name + ")\n\n" + text, notes
	}
	return prompt, notes
}
