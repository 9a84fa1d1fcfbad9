package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// The defects a new user met, each as the screen shows it.

// report is a child's final text: Markdown, with paragraphs longer than
// any line.
const report = "## Findings\n\nThe **auth** code lives in `internal/auth/session.go`, where sessions are created, " +
	"refreshed and expired by a ticker that runs every minute and ends with the last word ZEBRA.\n\n" +
	"A second paragraph says the middleware in `internal/http/mw.go` reads the cookie and ends with OKAPI."

// ctrl+o on a finished child shows its whole report, wrapped and rendered,
// not each paragraph cut to one line.
func TestExpandShowsAFinishedChildsWholeReport(t *testing.T) {
	for _, width := range []int{60, 80, 120} {
		d := newDriver(t, width, 40)
		d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
		d.spawn(explore)
		d.emit(
			event.AgentFinished{Meta: explore.meta(6 * time.Second), Status: event.StatusCompleted, Stats: event.Stats{ToolCalls: 1, Duration: time.Second}, Text: report, Result: report},
			event.ToolFinished{Meta: mainMeta, CallID: "call-" + explore.id, Name: child.TaskToolName, Summary: "completed", Output: report + "\n\nstatus: completed · 1 tool"},
		)
		d.keys("ctrl+o")
		screen := d.screen()
		for _, want := range []string{"ZEBRA.", "OKAPI.", "Findings"} {
			if !strings.Contains(screen, want) {
				t.Errorf("%d columns: the expanded report lacks %q:\n%s", width, want, screen)
			}
		}
		if strings.Contains(screen, "**") || strings.Contains(screen, "`") {
			t.Errorf("%d columns: the report shows raw Markdown:\n%s", width, screen)
		}
		d.checkFits()
	}
}

// /subagents log shows rendered Markdown and tool calls by their titles,
// with the numbers of a read file's lines aligned.
func TestSubagentsLogRendersMarkdownAndReadableCalls(t *testing.T) {
	d := twoChildren(t)
	m := explore.meta(0)
	numbered := "     8\tfunc a() {\n     9\t\treturn\n    10\t}\n    11\t// end\n"
	d.s.records = map[event.AgentID][]transcript.Record{"explore-1": {
		recorded(t, event.AgentStarted{Meta: m, Prompt: "Find a."}),
		recorded(t, event.ToolStarted{Meta: m, CallID: "c1", Name: "read_file", Args: `{"path":"a.go","offset":8}`, Title: "read_file a.go"}),
		recorded(t, event.ToolFinished{Meta: m, CallID: "c1", Name: "read_file", Summary: "4 lines", Output: numbered}),
		recorded(t, event.MessageDone{Meta: m, Text: "**Found** it in `a.go`."}),
	}}
	d.keys("ctrl+o") // whole results
	d.command("/subagents log 1 tools")
	screen := d.screen()
	if strings.Contains(screen, `{"path"`) || !strings.Contains(screen, "read_file a.go (4 lines)") {
		t.Errorf("the call is not shown by its title:\n%s", screen)
	}
	if strings.Contains(screen, "**") || !strings.Contains(screen, "● Found it in") {
		t.Errorf("the answer is not rendered Markdown:\n%s", screen)
	}
	col := -1
	for _, n := range []string{"8", "9", "10", "11"} {
		at := -1
		for _, line := range strings.Split(screen, "\n") {
			if i := strings.Index(line, " "+n+"    "); i >= 0 && strings.Contains(line, "⎿") == (n == "8") {
				at = ansi.StringWidth(line[:i]) + 1 + len(n)
			}
		}
		if at < 0 || (col >= 0 && at != col) {
			t.Fatalf("line %s's text starts at column %d, line 8's at %d:\n%s", n, at, col, screen)
		}
		col = at
	}
}

// A provider error mid-answer shows the partial answer once, in either
// order the engine may have told it.
func TestProviderErrorShowsThePartialAnswerOnce(t *testing.T) {
	partial := "Half an answer about"
	for name, tail := range map[string][]event.Event{
		"error first":  {event.ErrorOccurred{Meta: mainMeta, Message: "stream: unexpected EOF"}, event.MessageDone{Meta: mainMeta, Text: partial}},
		"answer first": {event.MessageDone{Meta: mainMeta, Text: partial}, event.ErrorOccurred{Meta: mainMeta, Message: "stream: unexpected EOF"}},
	} {
		d := newDriver(t, 80, 24)
		d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"}, event.TextDelta{Meta: mainMeta, Text: partial})
		d.emit(append(tail, event.TurnEnded{Meta: mainMeta, Status: event.StatusFailed})...)
		if n := strings.Count(d.screen(), partial); n != 1 {
			t.Errorf("%s: the partial answer shows %d times:\n%s", name, n, d.screen())
		}
	}
}

// Panes show the number /subagents takes, and numbers count the session
// as ids do: a later turn's child is #4, never a second #1, so the
// number "message to #N" shows is the one its id ends with, and "stop 3"
// names the old finished child, not a new one.
func TestPanesShowSessionNumbersThatSubagentsTakes(t *testing.T) {
	d := newDriver(t, 120, 40)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "one"})
	for _, k := range []kid{explore, review, finder} {
		d.spawn(k)
	}
	if screen := d.screen(); !strings.Contains(screen, "#3 [Explore] find entry points") {
		t.Errorf("the pane does not show its number:\n%s", screen)
	}
	for _, k := range []kid{explore, review, finder} {
		d.finish(k, event.StatusCompleted, "")
	}
	d.emit(event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "two"})
	plan := kid{"plan-4", "Plan", "design the migration"}
	d.emit(plan.taskCall(), event.AgentStarted{Meta: plan.meta(0), Prompt: "Plan it."})
	if screen := d.screen(); !strings.Contains(screen, "#4 [Plan] design the migration") {
		t.Errorf("the second turn's child is not #4:\n%s", screen)
	}
	d.typeText("/subagents stop ")
	if popup := d.m.commands.Complete(d.m.input.Value()); len(popup) != 2 || popup[1].Label != "4" {
		t.Errorf("completion offers %+v, want all and the live #4 only", popup)
	}
	d.keys("esc")
	d.m.input.Set("")
	d.command("/subagents stop 1")
	if said := d.m.status.Text(); !strings.Contains(said, "#1 explore-1 already ended") {
		t.Errorf("/subagents stop 1 says %q, want that the first turn's #1 ended", said)
	}
	d.command("/subagents stop 4")
	if stopped, _ := d.s.calls(); len(stopped) != 1 || stopped[0] != "plan-4" {
		t.Errorf("/subagents stop 4 stopped %v, want plan-4", stopped)
	}
	d.keys("tab", "s")
	if screen := d.screen(); !strings.Contains(screen, "message to #4 plan-4 ›") {
		t.Errorf("the message line does not name the child by its session number:\n%s", screen)
	}
}

// Counts read right: one tool is "1 tool" on the pane and its fold line.
func TestOneToolIsOneTool(t *testing.T) {
	d := newDriver(t, 100, 30)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	m := explore.meta(2 * time.Second)
	d.emit(explore.taskCall(), explore.started(),
		event.ToolStarted{Meta: m, CallID: "x", Name: "grep", Title: "grep auth"},
		event.ToolFinished{Meta: m, CallID: "x", Name: "grep", Summary: "1 match"})
	if screen := d.screen(); !strings.Contains(screen, "... 1 tool,") {
		t.Errorf("the pane does not say 1 tool:\n%s", screen)
	}
	stats := event.Stats{ToolCalls: 1, Duration: time.Second}
	d.emit(event.AgentFinished{Meta: explore.meta(4 * time.Second), Status: event.StatusCompleted, Stats: stats, Text: "done"},
		event.ToolFinished{Meta: mainMeta, CallID: "call-" + explore.id, Name: child.TaskToolName, Summary: "completed · " + stats.Line()})
	if screen := d.screen(); !strings.Contains(screen, "done (1 tool, 1.0s)") || strings.Contains(screen, "1 tools") {
		t.Errorf("the fold line does not say 1 tool:\n%s", screen)
	}
}
