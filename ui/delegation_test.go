package ui

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// answerOf waits for an answer; a missing one fails the test instead of
// hanging it.
func answerOf(t *testing.T, answers chan event.Answer) event.Answer {
	t.Helper()
	select {
	case a := <-answers:
		return a
	case <-time.After(5 * time.Second):
		t.Fatal("no answer was given")
		return event.Answer{}
	}
}

func TestDelegationCardKeys(t *testing.T) {
	cases := []struct {
		name string
		keys func(d *driver)
		want event.Answer
	}{
		{"y", func(d *driver) { d.keys("y") }, event.Answer{Decision: event.Allow}},
		{"n", func(d *driver) { d.keys("n", "enter") }, event.Answer{Decision: event.Deny}},
		{"n+reason", func(d *driver) { d.keys("n"); d.typeText("too costly"); d.keys("enter") }, event.Answer{Decision: event.Deny, Reason: "too costly"}},
		{"n+esc", func(d *driver) { d.keys("n"); d.typeText("never mind"); d.keys("esc") }, event.Answer{Decision: event.Deny}},
		{"a", func(d *driver) { d.keys("a") }, event.Answer{Decision: event.AllowAlways}},
		{"e", func(d *driver) { d.keys("e", "ctrl+j"); d.typeText("Only look at cmd/."); d.keys("enter") },
			event.Answer{Decision: event.Allow, EditedPrompt: "Prompt for map the project layout.\n\nReport paths and line numbers.\nOnly look at cmd/."}},
		{"b", func(d *driver) {
			d.keys("b")
			d.typeText("20k")
			d.keys("tab", "tab", "backspace", "backspace")
			d.typeText("4")
			d.keys("enter")
		},
			event.Answer{Decision: event.Allow, EditedLimits: &event.Limits{MaxSteps: 4, Timeout: 2 * time.Minute, Budget: event.Budget{Tokens: 20000}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newDriver(t, 100, 30)
			d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
			answers := d.delegate(explore)
			if !strings.Contains(d.screen(), "? #1 [Explore] map the project layout ... awaiting approval") {
				t.Errorf("the child's pane does not wait for approval:\n%s", d.screen())
			}
			c.keys(d)
			if got := answerOf(t, answers); !reflect.DeepEqual(got, c.want) {
				t.Errorf("answered %+v, want %+v", got, c.want)
			}
			if d.layer() != "" || !d.m.input.Focused() {
				t.Errorf("after the answer: overlay %q, input focused %v", d.layer(), d.m.input.Focused())
			}
		})
	}
}

func TestDelegationCardShowsWhatWillRun(t *testing.T) {
	d := newDriver(t, 100, 30)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	d.delegate(explore)
	d.delegate(review)
	screen := d.screen()
	for _, want := range []string{"Delegate? [Explore] map the project layout", "Report paths and line numbers.", "read_file grep glob",
		"gpt-4.1-mini", "15 steps · 2m0s", "~1.2k tokens · $0.0005", "e edit prompt", "Y approve all 2", "2 approvals waiting"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the card lacks %q:\n%s", want, screen)
		}
	}
	d.checkFits()
}

func TestApproveAllLeavesPermissionCards(t *testing.T) {
	d := newDriver(t, 100, 30)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	first, second := d.delegate(explore), d.delegate(review)
	tool := askTool(t, d, "p1", mainMeta)
	third := d.delegate(finder)
	d.keys("Y")
	for _, answers := range []chan event.Answer{first, second, third} {
		if got := answerOf(t, answers); got.Decision != event.Allow {
			t.Errorf("Y answered %q", got.Decision)
		}
	}
	if d.m.approvals.Len() != 1 || !strings.Contains(d.screen(), "Allow run_command?") {
		t.Fatalf("the permission card did not stay:\n%s", d.screen())
	}
	d.keys("y")
	if got := answerOf(t, tool); got.Decision != event.Allow {
		t.Errorf("the permission card answered %q", got.Decision)
	}
}

// "a" answers its own card; the engine settles the waiting cards of the
// same type (engine.TestAlwaysSettlesTheWaitingDelegationsOfItsType) and
// says so with ApprovalResolved, which takes their cards away.
func TestAlwaysAnswersItsCardAndTheEngineTheRest(t *testing.T) {
	d := newDriver(t, 100, 30)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	first, other, same := d.delegate(explore), d.delegate(review), d.delegate(finder)
	d.keys("a")
	if got := answerOf(t, first); got.Decision != event.AllowAlways {
		t.Errorf("a answered %q", got.Decision)
	}
	if d.m.approvals.Len() != 2 || len(other) != 0 || len(same) != 0 {
		t.Fatalf("a answered other cards, or left %d", d.m.approvals.Len())
	}
	d.emit(event.ApprovalResolved{Meta: finder.meta(0), RequestID: finder.request().ID, Answer: event.Answer{Decision: event.Allow}, By: "remembered"})
	if d.m.approvals.Len() != 1 || !strings.Contains(d.screen(), "[Review]") {
		t.Fatalf("the settled card stayed, or the Review card left: %d\n%s", d.m.approvals.Len(), d.screen())
	}
}

func TestChildPermissionCardNamesTheChild(t *testing.T) {
	d := newDriver(t, 100, 30)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	d.spawn(explore)
	answers := askTool(t, d, "p1", explore.meta(0))
	screen := d.screen()
	if !strings.Contains(screen, "#1 [Explore] map the project layout asks: Allow run_command?") {
		t.Errorf("the card does not say which child asks:\n%s", screen)
	}
	if !strings.Contains(screen, "waiting for approval") {
		t.Errorf("the child's pane does not say it waits:\n%s", screen)
	}
	d.keys("y")
	answerOf(t, answers)
	d.emit(event.ApprovalResolved{Meta: explore.meta(0), RequestID: "p1", Answer: event.Answer{Decision: event.Allow}, By: "person"})
	if strings.Contains(d.screen(), "waiting for approval") {
		t.Errorf("the pane still waits after the answer:\n%s", d.screen())
	}
}

func TestTypingBeforeDelegationCardNeverAnswers(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	d.typeText("yY")
	answers := d.delegate(explore)
	if len(answers) != 0 || d.m.input.Value() != "yY" {
		t.Fatalf("keys typed before the card: answers %d, box %q", len(answers), d.m.input.Value())
	}
	d.keys("e")
	d.typeText("y") // in the editor, a y is text
	if len(answers) != 0 || !d.m.approvals.Typing() {
		t.Errorf("y in the prompt editor answered the card")
	}
	d.keys("esc")
	if d.layer() != "cards" || d.m.approvals.Typing() || len(answers) != 0 {
		t.Errorf("esc in the editor did not go back to the card: overlay %q", d.layer())
	}
}
