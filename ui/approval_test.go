package ui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// askTool brings up a permission card for run_command and returns the
// channel its answer arrives on.
func askTool(t *testing.T, d *driver, id string, meta event.Meta) chan event.Answer {
	t.Helper()
	req := &event.ApprovalRequest{ID: id, Kind: event.ApproveTool, Tool: "run_command", Args: `{"command":"go test ./..."}`, Preview: "go test ./...",
		Always: []string{"run_command(go test:*)"}, AlwaysLabel: `"go test …"`}
	answers := newRequest(t, req)
	d.emit(event.ApprovalRequested{Meta: meta, Request: req})
	return answers
}

func TestApprovalKeysDeliverAnswers(t *testing.T) {
	for key, want := range map[string]event.Decision{"y": event.Allow, "a": event.AllowAlways, "n enter": event.Deny, "n esc": event.Deny, "esc": event.Deny} {
		t.Run(key, func(t *testing.T) {
			d := newDriver(t, 80, 24)
			d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "test it"})
			answers := askTool(t, d, "p1", mainMeta)
			if d.layer() != "cards" || d.m.input.Focused() {
				t.Fatalf("card shown: overlay %q, input focused %v", d.layer(), d.m.input.Focused())
			}
			d.keys(strings.Fields(key)...)
			select {
			case got := <-answers:
				if got.Decision != want {
					t.Errorf("%s answered %q, want %q", key, got.Decision, want)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%s gave no answer", key)
			}
			if d.layer() != "" || !d.m.input.Focused() {
				t.Errorf("after the answer: overlay %q, input focused %v", d.layer(), d.m.input.Focused())
			}
			if stopped := d.s.interrupts != 0; stopped != (key == "esc") {
				t.Errorf("%s: turn interrupted = %v; only esc on a tool card stops the turn", key, stopped)
			}
		})
	}
}

func TestTypingBeforeCardNeverAnswers(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.hold = true
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	d.typeText("y")
	answers := askTool(t, d, "p1", mainMeta)
	d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("yes"), Paste: true})
	d.typeText("z")
	if len(answers) != 0 {
		t.Fatalf("answered %v by keys typed before the card or pasted", <-answers)
	}
	if got := d.m.input.Value(); got != "yyesz" {
		t.Errorf("the box holds %q; keys typed while the card arms go on into it", got)
	}
	if !strings.Contains(d.screen(), "Allow run_command?") || !strings.Contains(d.screen(), "go test ./...") {
		t.Errorf("card does not show the command:\n%s", d.screen())
	}
}

func TestCardsQueueAndChildCardsSayWhoAsks(t *testing.T) {
	d := newDriver(t, 100, 30)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	first := askTool(t, d, "p1", mainMeta)
	child := event.Meta{Agent: "c1", Parent: event.MainAgent, AgentType: "general-purpose", Description: "fix the build"}
	second := askTool(t, d, "p2", child)
	if !strings.Contains(d.screen(), "2 approvals waiting") {
		t.Errorf("status does not count the waiting cards:\n%s", d.screen())
	}
	d.keys("n", "enter")
	if got := (<-first).Decision; got != event.Deny {
		t.Fatalf("first card answered %q", got)
	}
	if !strings.Contains(d.screen(), "[general-purpose] fix the build asks") {
		t.Errorf("the child's card does not say who asks:\n%s", d.screen())
	}
	d.keys("y")
	if got := (<-second).Decision; got != event.Allow {
		t.Errorf("second card answered %q", got)
	}
}

func TestCardsDroppedWhenResolvedOrTurnEnds(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	askTool(t, d, "p1", mainMeta)
	left := askTool(t, d, "p2", mainMeta)
	d.emit(event.ApprovalResolved{Meta: mainMeta, RequestID: "p1", Answer: event.Answer{Decision: event.Allow}, By: "remembered"})
	if d.m.approvals.Len() != 1 || d.m.approvals.Drop("p1") {
		t.Fatalf("after p1 resolved the cards are %d", d.m.approvals.Len())
	}
	d.emit(event.TurnEnded{Meta: mainMeta, Status: event.StatusInterrupted})
	if got := (<-left).Decision; got != event.Deny || d.layer() != "" {
		t.Errorf("a card left by an ended turn: answer %q, overlay %q", got, d.layer())
	}
}

func TestDelegationCardAndLongPreviewScroll(t *testing.T) {
	d := newDriver(t, 80, 20)
	var diff strings.Builder
	diff.WriteString("--- a/x.go\n+++ b/x.go\n@@ -1,40 +1,40 @@\n")
	for i := range 40 {
		fmt.Fprintf(&diff, "+line %d\n", i)
	}
	req := &event.ApprovalRequest{ID: "p1", Kind: event.ApproveTool, Tool: "write_file", Preview: diff.String()}
	newRequest(t, req)
	d.emit(event.ApprovalRequested{Meta: mainMeta, Request: req})
	d.checkFits()
	if strings.Contains(d.screen(), "+line 39") {
		t.Fatal("a long preview was not cut to the card")
	}
	for range 50 {
		d.keys("down")
	}
	if !strings.Contains(d.screen(), "+line 39") || !strings.Contains(d.screen(), "y allow once") {
		t.Errorf("scrolling down does not reach the end with the keys still shown:\n%s", d.screen())
	}
	d.keys("esc")

	del := &event.ApprovalRequest{ID: "p2", Kind: event.ApproveDelegation, Delegation: &event.DelegationPreview{
		AgentType: "Review", Description: "check session expiry", Prompt: "Read internal/auth and report.",
		Tools: []string{"read_file", "grep"}, Model: "gpt-4.1-mini", MaxSteps: 15, EstimatedTokens: 1200, EstimatedCost: 0.002, CostKnown: true,
	}}
	newRequest(t, del)
	d.emit(event.ApprovalRequested{Meta: mainMeta, Request: del})
	for _, want := range []string{"Delegate? [Review] check session expiry", "Read internal/auth", "read_file grep", "gpt-4.1-mini", "always for Review"} {
		if !strings.Contains(d.screen(), want) {
			t.Errorf("delegation card lacks %q:\n%s", want, d.screen())
		}
	}
}

// esc on a sub-agent's tool card denies the call and stops that child
// alone: its siblings and the main turn carry on. The card says so.
func TestEscOnAChildsCardStopsOnlyThatChild(t *testing.T) {
	d := newDriver(t, 100, 40)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	for _, k := range []kid{explore, review, finder} {
		d.spawn(k)
	}
	answers := askTool(t, d, "p1", review.meta(time.Second))
	if screen := d.screen(); !strings.Contains(screen, "esc deny & stop this child") || strings.Contains(screen, "stop turn") {
		t.Errorf("the child's card does not say esc stops only the child:\n%s", screen)
	}
	d.keys("esc")
	select {
	case got := <-answers:
		if got.Decision != event.Deny {
			t.Errorf("esc answered %q", got.Decision)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("esc gave no answer")
	}
	if stopped, _ := d.s.calls(); !reflect.DeepEqual(stopped, []event.AgentID{"review-2"}) || d.s.interrupts != 0 {
		t.Errorf("esc on review-2's card stopped %v and interrupted the turn %d times; want review-2 alone", stopped, d.s.interrupts)
	}
	if !strings.Contains(d.screen(), "stopping #2 review-2") {
		t.Errorf("no word of the stop:\n%s", d.screen())
	}
}
