package config

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
func (c *Config) applyClaudeFlags(f ClaudeOverrides, home string) {
	for _, text := range f.AllowedTools {
		if r, ok := c.claudeFlagRule(sourceAllowedTools, text, home); ok {
			c.Allow = appendMissing(c.Allow, []string{r})
		}
	}
	for _, text := range f.DisallowedTools {
		if r, ok := c.claudeFlagRule(sourceDisallowedTools, text, home); ok {
			c.Rules = append(c.Rules, event.PermissionRule{Kind: "deny", Rule: r, Source: sourceDisallowedTools})
		}
	}
	if f.AcceptEdits {
		c.Allow = appendMissing(c.Allow, []string{"edit_file", "write_file"})
	}
	if f.SystemPrompt != nil {
		c.SystemPrompt = *f.SystemPrompt
	}
	if f.AppendSystemPrompt != nil {
		c.AppendSystemPrompt = *f.AppendSystemPrompt
	}
	c.AskOverStdio = f.AskOverStdio
	if f.DebugFile != "" {
		c.DebugLog = f.DebugFile
	}
	if len(f.Ignored) > 0 {
		c.Notices = append(c.Notices, fmt.Sprintf("%s: accepted for Claude Code's sake; baton has no such setting", strings.Join(f.Ignored, ", ")))
	}
}

// claudeFlagRule reads one rule of --allowedTools or --disallowedTools.
func (c *Config) claudeFlagRule(flag, text, home string) (string, bool) {
	r, err := rules.FromClaude(text, home)
	if err == nil {
		r, err = checkRule(r)
	}
	if err != nil {
		c.Notices = append(c.Notices, fmt.Sprintf("%s: skipped %q: %v", flag, text, err))
		return "", false
	}
	return r, true
}
