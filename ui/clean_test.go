package ui

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// Escape sequences and control characters from a model, a tool or a
// transcript never reach the terminal, yet their text shows: events are
// cleaned once, where they enter, and everything drawn from them (the
// conversation, a pane, the transcript view, /subagents info and log,
// the status line) is safe.
func TestEventsAreCleanedWhereTheyEnter(t *testing.T) {
	d := newDriver(t, 120, 40)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"},
		event.TextDelta{Meta: mainMeta, Text: "main\x1b[2J says\x07 hi\n"},
		event.Notice{Meta: mainMeta, Text: "careful\x1b]0;owned\x07 now"})
	dirty := explore.meta(0)
	dirty.Description = "find \x1b[31mauth\x1b[0m\ncode"
	d.emit(explore.taskCall(),
		event.AgentStarted{Meta: dirty, Prompt: "go\x1b]0;owned\x07 look", Model: "m\x1b[2J"},
		event.ToolStarted{Meta: dirty, CallID: "c", Name: "grep", Title: "grep \x1b[1mTODO\x1b[0m\r"},
		event.TextDelta{Meta: dirty, Text: "found\x1b[2J it\ttoo\x07"})
	screen := d.m.View()
	if strings.ContainsAny(screen, "\x07\r") || strings.Contains(screen, "\x1b[2J") || strings.Contains(screen, "\x1b]0") {
		t.Fatalf("the screen carries control sequences from events: %q", screen)
	}
	for _, want := range []string{"main says hi", "careful now", "find auth code", "grep TODO", "found it    too"} {
		if !strings.Contains(d.screen(), want) {
			t.Errorf("the screen lost %q:\n%s", want, d.screen())
		}
	}
	d.keys("tab", "enter")
	if view := d.m.View(); strings.Contains(view, "\x1b]0") || !strings.Contains(d.screen(), "go look") {
		t.Errorf("the transcript view: %q", view)
	}
	d.keys("esc", "esc")

	d.s.records = map[event.AgentID][]transcript.Record{"explore-1": {
		recorded(t, event.AgentStarted{Meta: dirty, Prompt: "Map\x1b[2J it."}),
		recorded(t, event.MessageDone{Meta: dirty, Text: "done\x1b]0;owned\x07 here"}),
	}}
	d.command("/subagents log 1")
	if view := d.m.View(); strings.Contains(view, "\x1b]0") || strings.Contains(view, "\x1b[2J") || !strings.Contains(d.screen(), "done here") {
		t.Errorf("the log carries control sequences: %q", view)
	}
	d.command("/subagents info 1")
	if view := d.m.View(); strings.Contains(view, "\x1b[2J") || strings.Contains(view, "\x1b]0") {
		t.Errorf("/subagents info carries control sequences: %q", view)
	}
}
