package ui

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// sentToBackground is what the engine says once b let go of the child:
// the child runs on, the task call returns with its id.
func sentToBackground(k kid) []event.Event {
	return []event.Event{
		event.AgentBackgrounded{Meta: k.meta(2 * time.Second), By: "person"},
		event.ToolFinished{Meta: mainMeta, CallID: "call-" + k.id, Name: child.TaskToolName, Summary: "started #1 in the background",
			Output: "started #1 in the background (id " + k.id + ")."},
	}
}

func TestBKeySendsARunningChildToTheBackground(t *testing.T) {
	d := newDriver(t, 120, 30)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "map it"})
	d.spawn(explore)
	d.keys("tab")
	if help := d.screen(); !strings.Contains(help, "b background") {
		t.Fatalf("the focused pane's help lacks b:\n%s", help)
	}
	d.keys("b")
	if got := d.s.backgrounded; !reflect.DeepEqual(got, []event.AgentID{"explore-1"}) {
		t.Fatalf("b called Background(%v)", got)
	}
	d.emit(sentToBackground(explore)...)
	d.emit(event.TextDelta{Meta: mainMeta, Text: "While it maps, what else?"}, event.MessageDone{Meta: mainMeta, Text: "While it maps, what else?"},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted, Text: "While it maps, what else?"})
	screen := d.screen()
	for _, want := range []string{"1 in background", "· background", "task [Explore] map the project layout (started #1 in the background)"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("screen lacks %q:\n%s", want, screen)
		}
	}
	// A background child's task call has returned: only the child ends.
	d.emit(event.AgentFinished{Meta: explore.meta(6 * time.Second), Status: event.StatusCompleted, Text: "found it", Result: "found it",
		Stats: event.Stats{ToolCalls: 8, Duration: 5100 * time.Millisecond}})
	d.emit(event.ResultQueued{Meta: explore.meta(7 * time.Second), Status: event.StatusCompleted, Waits: true})
	screen = d.screen()
	fold := strings.Index(screen, "✓ #1 [Explore] map the project layout - done")
	later := strings.Index(screen, "While it maps, what else?")
	if fold < 0 || later < 0 || fold > later || strings.Contains(screen, "in background") {
		t.Fatalf("the fold line is not where the child was delegated (fold %d, later text %d):\n%s", fold, later, screen)
	}
	if !strings.Contains(screen, "the result of #1 explore-1 waits for your next prompt") {
		t.Fatalf("no word that the result waits:\n%s", screen)
	}
}

// TestHeldResultsAreShownAsWaiting: once a prompt's wake turns are spent,
// the status line says which results wait for the next prompt and why.
func TestHeldResultsAreShownAsWaiting(t *testing.T) {
	d := newDriver(t, 120, 24)
	d.emit(event.ResultsHeld{Meta: mainMeta, Children: []event.AgentID{"explore-4", "explore-5"}, WakeTurns: 5})
	want := "the results of explore-4, explore-5 wait for the next prompt (limits.wake_turns_per_prompt = 5 reached)"
	if screen := d.screen(); !strings.Contains(screen, want) {
		t.Fatalf("screen lacks %q:\n%s", want, screen)
	}
}

func TestWakeTurnOpensWithTheResultNotAsThePerson(t *testing.T) {
	d := newDriver(t, 100, 24)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "[#1 done] explore-1 (map the project layout)", Wake: true},
		event.MessageDone{Meta: mainMeta, Text: "The explorer mapped it."},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted, Text: "The explorer mapped it."})
	screen := d.screen()
	if !strings.Contains(screen, "[#1 done] explore-1 (map the project layout)") || strings.Contains(screen, "› [#1 done]") {
		t.Fatalf("wake turn drawn as:\n%s", screen)
	}
}

func TestBKeyRefusesAGrandchild(t *testing.T) {
	d := newDriver(t, 120, 30)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "map it"})
	d.spawn(explore)
	grand := event.Meta{Agent: "explore-2", Parent: "explore-1", AgentType: "Explore", Description: "look deeper", Time: t0}
	d.emit(event.AgentStarted{Meta: grand, Prompt: "deeper", Model: "m"})
	d.m.agents.Focus("explore-2")
	d.run(d.m.agents.Arm()) // as the root does after every message
	if help := d.screen(); strings.Contains(help, "b background") {
		t.Fatalf("a grandchild's help offers b:\n%s", help)
	}
	d.keys("b")
	if len(d.s.backgrounded) != 0 || !strings.Contains(d.m.status.Text(), "only the main agent's sub-agents") {
		t.Fatalf("b on a grandchild: backgrounded %v, status %q", d.s.backgrounded, d.m.status.Text())
	}
}

func TestSubagentsSendToAFinishedChildContinuesIt(t *testing.T) {
	d := twoChildren(t)
	d.command("/subagents send 1 now check expiry")
	if got := d.s.continued; !reflect.DeepEqual(got, []string{"explore-1: now check expiry"}) {
		t.Fatalf("continued %q", got)
	}
	if _, sent := d.s.calls(); len(sent) != 0 {
		t.Fatalf("a finished child got a message: %q", sent)
	}
}

// TestSubagentsResumeAndRetry: /subagents resume and retry reach the
// session for a child that ended, and are refused, saying why, for one
// that still runs.
func TestSubagentsResumeAndRetry(t *testing.T) {
	d := twoChildren(t)
	d.command("/subagents resume 1")
	d.command("/subagents retry explore-1")
	if got := d.s.continued; !reflect.DeepEqual(got, []string{"resume explore-1", "retry explore-1"}) {
		t.Fatalf("continued %q", got)
	}
	d.command("/subagents resume 2")
	if len(d.s.continued) != 2 || !strings.Contains(d.m.status.Text(), "resume: #2") || !strings.Contains(d.m.status.Text(), "is still") {
		t.Fatalf("resume of a running child: continued %q, status %q", d.s.continued, d.m.status.Text())
	}
	d.command("/subagents retry 1 2")
	if !strings.Contains(d.m.status.Text(), "/subagents retry takes one id or number") {
		t.Fatalf("status %q", d.m.status.Text())
	}
}
