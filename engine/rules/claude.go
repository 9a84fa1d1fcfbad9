package rules

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/seed-e4e525a6/baton/agenttypes"
)

// claudeNames are Claude Code's names for baton's tools, from the tool
// table, the first of each being the one Claude Code uses today: its
// permission rules, skill allowed-tools and hook matchers say Bash where
// baton says run_command.
func claudeNames() map[string][]string {
	claudeNamesOnce.Do(func() {
		claudeNamesValue = map[string][]string{}
		for _, t := range agenttypes.Tools() {
			if len(t.Claude) > 0 {
				claudeNamesValue[t.Name] = t.Claude
			}
		}
	})
	return claudeNamesValue
}

// claudeNamesOnce and claudeNamesValue hold them, built on first use (a
// zero sync.Once costs nothing at start).
var (
	claudeNamesOnce  sync.Once
	claudeNamesValue map[string][]string
)

// ClaudeNames returns Claude Code's names for a baton tool, the current
// one first; an MCP tool (mcp__server__tool) is named alike in both, and
// a tool Claude Code lacks has none.
func ClaudeNames(tool string) []string {
	if strings.HasPrefix(tool, "mcp__") {
		return []string{tool}
	}
	return claudeNames()[tool]
}

// ToolOfClaude maps one of Claude Code's tool names to baton's; mcp__
// names are kept as they are.
func ToolOfClaude(name string) (string, bool) {
	if strings.HasPrefix(name, "mcp__") {
		return name, true
	}
	for tool, names := range claudeNames() {
		for _, n := range names {
			if n == name {
				return tool, true
			}
		}
	}
	return "", false
}

// FromClaude rewrites a rule in Claude Code's form as baton's:
// "Bash(npm test:*)" becomes "run_command(npm test:*)", Claude Code's
// newer "Bash(npm run *)" the prefix form, and its path forms ("//abs",
// "~/x", "/in-project", "./x") baton's (absolute, or relative to the
// workspace). home expands "~/" (its name matched as written); without
// one such a rule is refused.
func FromClaude(text, home string) (string, error) {
	text = strings.TrimSpace(text)
	name, pattern, scoped := strings.Cut(text, "(")
	if strings.HasPrefix(name, "mcp__") {
		return text, nil
	}
	tool, ok := ToolOfClaude(name)
	if !ok {
		return "", fmt.Errorf("no baton tool for %s", name)
	}
	if !scoped {
		return tool, nil
	}
	pattern = strings.TrimSuffix(pattern, ")")
	switch {
	case tool == CommandTool:
		if trimmed, ok := strings.CutSuffix(pattern, "*"); ok && !strings.HasSuffix(pattern, ":*") {
			pattern = strings.TrimSpace(trimmed) + ":*"
		}
	case strings.HasPrefix(pattern, "//"):
		pattern = pattern[1:]
	case strings.HasPrefix(pattern, "~/"):
		if home == "" {
			return "", errors.New("no home folder for ~")
		}
		// The home folder is matched as written: a [ or * in its name
		// is no glob.
		pattern = strings.TrimSuffix(escapeGlob(filepath.ToSlash(filepath.Clean(home))), "/") + "/" + pattern[2:]
	case strings.HasPrefix(pattern, "/"):
		pattern = pattern[1:]
	}
	return tool + "(" + pattern + ")", nil
}

// FolderRule covers every call of a file tool on dir or below it, dir
// being an absolute path matched as written (its glob characters
// escaped).
func FolderRule(tool, dir string) Rule {
	dir = strings.TrimSuffix(filepath.ToSlash(filepath.Clean(dir)), "/")
	return Rule{Tool: tool, Scoped: true, Glob: escapeGlob(dir) + "/**"}
}
