package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// TestSkillsCommand lists each skill with its source and whether it was
// loaded, then the broken ones by file, cleaned of escapes.
func TestSkillsCommand(t *testing.T) {
	s := newFakeSession()
	s.skills = []event.SkillStatus{
		{Name: "videodb", Description: "See, Understand, Act on video", Source: ".claude/skills", File: "/w/.claude/skills/videodb/SKILL.md",
			Offered: true, Loads: 2, AllowedTools: []string{"Read", "Grep", "Glob", "Bash(python:*)"}},
		{Name: "release", Source: "~/.claude/skills", File: "/h/.claude/skills/release/SKILL.md", Offered: false},
		{File: "/w/.baton/skills/swiftui/SKILL.md", Problem: "broken: /w/.baton/skills/swiftui/SKILL.md:3: skipped: bad YAML\x1b[31m"},
	}
	d := newDriverFor(t, s, Options{Theme: "dark"}, 120, 40)
	d.command("/skills")
	screen := d.screen()
	for _, want := range []string{
		"Skills",
		"videodb  offered to the model · loaded 2 times", "/w/.claude/skills/videodb/SKILL.md (from .claude/skills)",
		"allowed-tools: Read Grep Glob Bash(python:*)",
		"release  not offered to the model (disable-model-invocation)",
		"Not loaded:", "swiftui/SKILL.md:3: skipped: bad YAML",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("/skills lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "\x1b[31m") {
		t.Error("a skill's problem reached the screen with its escape sequence")
	}
}

// TestHooksCommand lists each hook with its source and what it did last.
func TestHooksCommand(t *testing.T) {
	s := newFakeSession()
	s.hooks = []event.HookStatus{
		{Event: "PreToolUse", Matcher: "Bash", Command: "~/.claude/hooks/guard.sh", Source: "~/.claude/settings.json",
			Runs: 3, Last: "exit 2: deny (no rm -rf here)", LastAt: time.Now().Add(-5 * time.Second), Took: 12 * time.Millisecond, Output: ""},
		{Event: "SessionStart", Command: "./ctx.sh", Source: ".claude/settings.json"},
	}
	d := newDriverFor(t, s, Options{Theme: "dark"}, 120, 40)
	d.command("/hooks")
	screen := d.screen()
	for _, want := range []string{
		"Hooks", "PreToolUse Bash  ~/.claude/hooks/guard.sh", "from ~/.claude/settings.json",
		"last: exit 2: deny (no rm -rf here)", "3 runs",
		"SessionStart  ./ctx.sh", "not run yet",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("/hooks lacks %q:\n%s", want, screen)
		}
	}
	empty := newDriver(t, 120, 30)
	empty.command("/hooks")
	if !strings.Contains(empty.screen(), "none configured") {
		t.Errorf("/hooks without hooks:\n%s", empty.screen())
	}
}
