package ui

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

func TestSlashCommands(t *testing.T) {
	d := newDriver(t, 100, 30)
	run := func(line string) {
		t.Helper()
		d.typeText(line)
		d.keys("esc", "enter") // esc closes the popup so enter runs exactly what was typed
	}

	run("/help")
	if s := d.screen(); !strings.Contains(s, "Themes: dark") || !strings.Contains(s, "ctrl+o") {
		t.Errorf("/help shows no themes or keys:\n%s", s)
	}

	run("/model gpt-5-mini")
	if d.s.Model() != "gpt-5-mini" || !strings.Contains(d.screen(), "gpt-5-mini ·") {
		t.Errorf("/model: session has %q; header:\n%s", d.s.Model(), d.screen())
	}

	run("/theme light")
	if d.m.styles.Palette.Name != "light" {
		t.Errorf("/theme light left the theme %q", d.m.styles.Palette.Name)
	}
	run("/theme neon")
	if d.m.styles.Palette.Name != "light" || !strings.Contains(d.screen(), `unknown theme "neon"`) {
		t.Errorf("/theme neon: theme %q, screen:\n%s", d.m.styles.Palette.Name, d.screen())
	}

	run("/frobnicate")
	if !strings.Contains(d.screen(), "unknown command /frobnicate") {
		t.Errorf("an unknown command is not reported:\n%s", d.screen())
	}

	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "hi"})
	run("/clear")
	if d.s.clears != 0 || !strings.Contains(d.screen(), "a turn is running") {
		t.Errorf("/clear while busy: %d clears; screen:\n%s", d.s.clears, d.screen())
	}
	d.emit(event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	run("/clear")
	if d.s.clears != 1 || !d.m.conv.Empty() {
		t.Errorf("/clear when idle: %d clears, transcript empty %v", d.s.clears, d.m.conv.Empty())
	}

	run("/quit")
	if !d.quit {
		t.Error("/quit did not quit")
	}
}

func TestCommandCompletion(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.typeText("/")
	for _, name := range []string{"/help", "/clear", "/model NAME", "/theme NAME", "/quit"} {
		if !strings.Contains(d.screen(), name) {
			t.Errorf("popup lacks %s:\n%s", name, d.screen())
		}
	}
	d.typeText("th")
	d.keys("tab")
	if got := d.m.input.Value(); got != "/theme " {
		t.Fatalf("tab completed to %q", got)
	}
	d.typeText("hi")
	d.keys("enter") // completes to the only match and runs it
	if d.m.styles.Palette.Name != "high-contrast" {
		t.Errorf("enter on /theme hi left the theme %q", d.m.styles.Palette.Name)
	}

	d.typeText("/")
	d.keys("down", "enter") // the second command is /clear, which runs at once
	if d.s.clears != 1 {
		t.Errorf("choosing /clear from the popup ran it %d times", d.s.clears)
	}
	d.typeText("/m")
	d.keys("enter")
	if got := d.m.input.Value(); got != "/model " {
		t.Errorf("enter on /m left %q; a command that takes a name waits for it", got)
	}
}

func TestModelCommandRunsWhenTypedInFull(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.typeText("/model")
	d.keys("enter")
	if d.m.input.Value() != "" || !strings.Contains(d.m.status.Text(), "model: gpt-4.1") {
		t.Errorf("enter on /model left %q in the box, status %q", d.m.input.Value(), d.m.status.Text())
	}
	d.typeText("/mo")
	d.keys("enter")
	if d.m.input.Value() != "/model " {
		t.Errorf("enter on /mo completed to %q", d.m.input.Value())
	}
	d.typeText("gpt-4.1-mini")
	d.keys("enter")
	if d.m.header.Model() != "gpt-4.1-mini" {
		t.Errorf("model %q, want gpt-4.1-mini", d.m.header.Model())
	}
}

func TestModelCommandRefusesBadNames(t *testing.T) {
	for _, line := range []string{"/model /model gpt-4.1-mini", "/model gpt 4"} {
		d := newDriver(t, 80, 24)
		d.typeText(line)
		d.keys("enter")
		if d.m.header.Model() != "gpt-4.1" || !strings.Contains(d.m.status.Text(), "not a model name") {
			t.Errorf("%q: model %q, status %q", line, d.m.header.Model(), d.m.status.Text())
		}
	}
}

// /help names every /subagents sub-command, diff (the worktree review)
// included, so the person can find it without reading the README.
func TestHelpNamesSubagentsDiff(t *testing.T) {
	d := newDriver(t, 120, 60)
	d.typeText("/help")
	d.keys("esc", "enter")
	if s := d.screen(); !strings.Contains(s, "/subagents list|stop|log|info|send|diff") {
		t.Errorf("/help lacks /subagents diff:\n%s", s)
	}
}

// /help lines its commands up whatever their length, names every
// /subagents word, and groups the keys under where they apply.
func TestHelpAlignsCommandsAndGroupsKeys(t *testing.T) {
	d := newDriver(t, 120, 80)
	d.typeText("/help")
	d.keys("esc", "enter")
	lines := strings.Split(d.screen(), "\n")
	column := func(prefix, desc string) int {
		for _, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), prefix) {
				return strings.Index(l, desc)
			}
		}
		return -1
	}
	help, perms := column("/help", "show keys"), column("/permissions", "list, add")
	if help < 0 || help != perms {
		t.Errorf("descriptions start at columns %d (/help) and %d (/permissions):\n%s", help, perms, d.screen())
	}
	for _, want := range []string{"/subagents list|stop|log|info|send|diff", "Keys in the input:", "ctrl+r", "Keys on a card:", "Keys on a sub-agent's pane"} {
		if !strings.Contains(d.screen(), want) {
			t.Errorf("/help lacks %q:\n%s", want, d.screen())
		}
	}
}
