package ui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/ui/overlay"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// threeRunning starts a turn with three running children.
func threeRunning(t *testing.T, width, height int) *driver {
	t.Helper()
	d := newDriver(t, width, height)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "what is here"})
	for _, k := range []kid{explore, review, finder} {
		d.spawn(k)
	}
	return d
}

func TestTabCyclesInputAndPanes(t *testing.T) {
	d := threeRunning(t, 100, 40)
	want := []event.AgentID{"explore-1", "review-2", "explore-3", ""}
	for _, id := range want {
		d.keys("tab")
		if d.focus() != id || d.m.input.Focused() != (id == "") {
			t.Fatalf("tab focused %q (input focused %v), want %q", d.focus(), d.m.input.Focused(), id)
		}
	}
	d.keys("tab", "tab", "shift+tab")
	if d.focus() != "explore-1" {
		t.Errorf("shift+tab from #2 focused %q, want #1", d.focus())
	}
	d.keys("esc")
	if d.focus() != "" || !d.m.input.Focused() || d.s.interrupts != 0 {
		t.Errorf("esc on a pane: focus %q, input focused %v, interrupts %d", d.focus(), d.m.input.Focused(), d.s.interrupts)
	}
}

func TestStopAndSendOnFocusedPane(t *testing.T) {
	d := threeRunning(t, 100, 40)
	d.keys("tab", "tab", "x")
	if stopped, _ := d.s.calls(); !reflect.DeepEqual(stopped, []event.AgentID{"review-2"}) {
		t.Errorf("x stopped %v, want [review-2]", stopped)
	}
	d.keys("s")
	if d.layer() != "message" || !strings.Contains(d.screen(), "message to #2 review-2 ›") {
		t.Fatalf("s does not open the message line:\n%s", d.screen())
	}
	d.typeText("also check vendor/")
	d.keys("enter")
	if _, sent := d.s.calls(); !reflect.DeepEqual(sent, []string{"review-2: also check vendor/"}) {
		t.Errorf("sent %q", sent)
	}
	if d.layer() != "" || d.focus() != "review-2" {
		t.Errorf("after sending: overlay %q, focus %q", d.layer(), d.focus())
	}
	d.keys("s", "esc")
	if _, sent := d.s.calls(); len(sent) != 1 || d.layer() != "" {
		t.Errorf("esc on the message line sent %q, overlay %q", sent, d.layer())
	}
	d.finish(review, event.StatusCancelled, "stopped by the person")
	if d.focus() != "" || !d.m.input.Focused() {
		t.Errorf("the focus went to %q, not back to the input", d.focus())
	}
	d.keys("x")
	if stopped, _ := d.s.calls(); len(stopped) != 1 {
		t.Errorf("a second x stopped another pane: %v", stopped)
	}
}

func TestTranscriptViewIsLiveAndEscGoesBack(t *testing.T) {
	d := threeRunning(t, 100, 30)
	d.keys("tab", "enter")
	if d.layer() != "transcript" {
		t.Fatalf("enter on a pane did not open its transcript")
	}
	d.checkFits()
	screen := d.screen()
	for _, want := range []string{"Prompt for map the project layout.", "grep -n TODO explore-1 (7 matches)", "a.go:3: TODO", "read_file explore-1.go", "Reading the files of map"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "look for TODOs ...") {
		t.Errorf("the transcript is not full screen:\n%s", screen)
	}
	d.emit(event.TextDelta{Meta: explore.meta(0), Text: " and the last words"})
	if !strings.Contains(d.screen(), "and the last words") {
		t.Errorf("the transcript does not follow the running child:\n%s", d.screen())
	}
	for i := range 40 {
		d.emit(event.TextDelta{Meta: explore.meta(0), Text: fmt.Sprintf("\nline %d", i)})
	}
	d.keys("pgup")
	before := d.screen()
	d.emit(event.TextDelta{Meta: explore.meta(0), Text: "\nline 40"})
	if after := d.screen(); after != before || strings.Contains(after, "line 39") {
		t.Errorf("the scrolled-up transcript moved:\n%s\n---\n%s", before, after)
	}
	d.keys("end")
	if !strings.Contains(d.screen(), "line 40") {
		t.Errorf("end does not follow the bottom again:\n%s", d.screen())
	}
	d.keys("esc")
	if d.layer() != "" || d.focus() != "explore-1" || !strings.Contains(d.screen(), "sub-agents (3)") {
		t.Errorf("esc did not go back to the panes: overlay %q, focus %q", d.layer(), d.focus())
	}
}

func TestCardIsNeverHiddenBehindTheTranscript(t *testing.T) {
	d := threeRunning(t, 100, 30)
	d.keys("tab", "enter")
	req := &event.ApprovalRequest{ID: "p1", Kind: event.ApproveTool, Tool: "run_command", Preview: "go test ./..."}
	answers := newRequest(t, req)
	d.emit(event.ApprovalRequested{Meta: review.meta(0), Request: req})
	if !strings.Contains(d.screen(), "#2 [Review] look for TODOs asks: Allow run_command?") {
		t.Fatalf("a card that arrived over the transcript is not shown:\n%s", d.screen())
	}
	d.keys("y")
	if got := (<-answers).Decision; got != event.Allow {
		t.Errorf("answered %q", got)
	}
	if d.layer() != "transcript" {
		t.Errorf("after the card the transcript did not come back: overlay %q", d.layer())
	}
}

func TestMessageLineKeepsItsTextWhenACardInterrupts(t *testing.T) {
	d := threeRunning(t, 100, 30)
	d.keys("tab", "s")
	d.typeText("half a mes")
	answers := d.delegate(kid{"plan-4", "Plan", "plan the change"})
	d.typeText("y") // pressed after the card appeared, so it answers the card
	if got := <-answers; got.Decision != event.Allow {
		t.Fatalf("y on the card answered %q", got.Decision)
	}
	if d.layer() != "message" || !strings.Contains(d.screen(), "message to #1 explore-1 › half a mes") {
		t.Errorf("the message line did not come back whole: overlay %q:\n%s", d.layer(), d.screen())
	}
}

func TestTranscriptExpandLeavesTheConversationAlone(t *testing.T) {
	d := threeRunning(t, 100, 30)
	d.keys("tab", "enter", "ctrl+o")
	viewer := d.m.layers.Top().(*overlay.Transcript)
	if d.m.conv.Expanded() || !viewer.Expanded() {
		t.Errorf("ctrl+o in the transcript: conversation expanded %v, transcript expanded %v", d.m.conv.Expanded(), viewer.Expanded())
	}
	d.keys("esc", "esc", "ctrl+o")
	if !d.m.conv.Expanded() {
		t.Error("ctrl+o in the conversation no longer expands it")
	}
}

// The focus never moves to the panes while the prompt box holds unsent
// text, and a pane just focused takes no x until typing pauses: a key
// meant for the box never stops a child.
func TestPaneKeysAreGuardedLikeCards(t *testing.T) {
	d := threeRunning(t, 100, 40)
	d.typeText("fix the")
	d.keys("tab")
	if d.focus() != "" || d.m.input.Value() != "fix the" || !strings.Contains(d.m.status.Text(), "send or clear the prompt") {
		t.Fatalf("tab with unsent text: focus %q, box %q, status %q", d.focus(), d.m.input.Value(), d.m.status.Text())
	}
	d.m.input.Set("")
	d.hold = true
	d.keys("tab", "x")
	if stopped, _ := d.s.calls(); len(stopped) != 0 || d.focus() != "explore-1" {
		t.Fatalf("x typed as the focus arrived stopped %v (focus %q)", stopped, d.focus())
	}
	d.fire() // the quiet period the x restarted passes
	d.fire()
	d.keys("x")
	if stopped, _ := d.s.calls(); !reflect.DeepEqual(stopped, []event.AgentID{"explore-1"}) {
		t.Errorf("x after a quiet focus stopped %v, want [explore-1]", stopped)
	}
}
