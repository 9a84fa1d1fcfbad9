package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/convo"
)

// ctrl+o on a fold line shows the report the child's own conversation
// kept, whole, even when the parent's task result was cut short.
func TestFoldReportIsTheChildsConversation(t *testing.T) {
	for _, width := range []int{60, 80, 120} {
		d := newDriver(t, width, 40)
		d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
		d.spawn(explore)
		d.emit(
			event.AgentFinished{Meta: explore.meta(6 * time.Second), Status: event.StatusCompleted, Stats: event.Stats{ToolCalls: 1, Duration: time.Second}, Text: report},
			event.ToolFinished{Meta: mainMeta, CallID: "call-" + explore.id, Name: child.TaskToolName, Summary: "completed", Output: "cut short…\n\nstatus: completed · 1 tool"},
		)
		d.keys("ctrl+o")
		screen := d.screen()
		if !strings.Contains(screen, "ZEBRA.") || !strings.Contains(screen, "OKAPI.") || strings.Contains(screen, "cut short") {
			t.Errorf("%d columns: the expanded fold line is not the child's report:\n%s", width, screen)
		}
		d.checkFits()
	}
}

// The main conversation on screen is a view of the main agent's
// conversation model: the model built from the same events by
// convo.FromEvents, as a transcript would be, has the same entries, and
// /copy reads its answer there.
func TestMainConversationIsAConvoModel(t *testing.T) {
	evs := []event.Event{
		event.TurnStarted{Meta: mainMeta, Prompt: "plan it"},
		event.ReasoningDelta{Meta: mainMeta, Text: "think"},
		event.TextDelta{Meta: mainMeta, Text: "Here is "},
		event.MessageDone{Meta: mainMeta, Text: "Here is the plan."},
		event.ToolStarted{Meta: mainMeta, CallID: "c1", Name: "grep", Title: "grep auth"},
		event.ToolFinished{Meta: mainMeta, CallID: "c1", Name: "grep", Summary: "2 matches", Output: "a.go:1\nb.go:2"},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted},
	}
	d := newDriver(t, 80, 30)
	d.emit(evs...)
	want := convo.FromEvents("", evs).Entries()
	got := d.m.conv.Main().Entries()
	if len(got) != len(want) {
		t.Fatalf("entries %+v\nwant %+v", got, want)
	}
	for i := range got {
		if got[i].Kind != want[i].Kind || got[i].Body != want[i].Body || got[i].Title != want[i].Title {
			t.Errorf("entry %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if a := d.m.conv.Answers(); len(a) != 1 || a[0] != "Here is the plan." {
		t.Errorf("the answers /copy reads are %q", d.m.conv.Answers())
	}
	screen := d.screen()
	for _, s := range []string{"plan it", "Here is the plan.", "grep auth", "2 matches"} {
		if !strings.Contains(screen, s) {
			t.Errorf("the screen lacks %q:\n%s", s, screen)
		}
	}
}
