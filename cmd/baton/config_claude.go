package main

import (
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/rules"
)

// Where the rules of Claude Code's tool flags come from, as
// /permissions lists them.
const (
	sourceAllowedTools    = "--allowedTools"
	sourceDisallowedTools = "--disallowedTools"
)

// applyClaudeFlags layers the Claude Code flags that set what the config
// sets: tool rules in Claude Code's names, the permission mode, the
// system prompt and the debug log. A tool name baton has no tool for is
// skipped with a notice: a script written for Claude Code still runs.
func (c *config) applyClaudeFlags(f claudeFlags, home string) {
	for _, text := range f.allowedTools {
		if r, ok := c.claudeFlagRule(sourceAllowedTools, text, home); ok {
			c.Allow = appendMissing(c.Allow, []string{r})
		}
	}
	for _, text := range f.disallowedTools {
		if r, ok := c.claudeFlagRule(sourceDisallowedTools, text, home); ok {
			c.Rules = append(c.Rules, event.PermissionRule{Kind: "deny", Rule: r, Source: sourceDisallowedTools})
		}
	}
	if f.permissionMode == permEdits {
		c.Allow = appendMissing(c.Allow, []string{"edit_file", "write_file"})
	}
	if f.systemPrompt != nil {
		c.SystemPrompt = *f.systemPrompt
	}
	if f.appendSystemPrompt != nil {
		c.AppendSystemPrompt = *f.appendSystemPrompt
	}
	c.AskOverStdio = f.askOverStdio
	if f.debugFile != "" {
		c.DebugLog = f.debugFile
	}
	if len(f.ignored) > 0 {
		c.notices = append(c.notices, fmt.Sprintf("%s: accepted for Claude Code's sake; baton has no such setting", strings.Join(f.ignored, ", ")))
	}
}

// claudeFlagRule reads one rule of --allowedTools or --disallowedTools.
func (c *config) claudeFlagRule(flag, text, home string) (string, bool) {
	r, err := rules.FromClaude(text, home)
	if err == nil {
		r, err = checkRule(r)
	}
	if err != nil {
		c.notices = append(c.notices, fmt.Sprintf("%s: skipped %q: %v", flag, text, err))
		return "", false
	}
	return r, true
}
