package pane

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/convo"
)

// TestApprovalStates walks a child through the delegation card, the
// queue, a run and two tool permissions asked at once.
func TestApprovalStates(t *testing.T) {
	p := newPane()
	if p.State() != Queued {
		t.Fatalf("new pane state = %v, want queued", p.State())
	}
	step := func(ev event.Event, want State) {
		t.Helper()
		p.Apply(ev)
		if p.State() != want {
			t.Fatalf("after %s: state = %v, want %v", ev.Kind(), p.State(), want)
		}
	}
	step(requested()[0], AwaitingApproval)
	step(event.ApprovalResolved{Meta: at(time.Second), RequestID: "a1", Answer: event.Answer{Decision: event.Allow}}, Queued)
	step(event.AgentQueued{Meta: at(time.Second), Position: 1}, Queued)
	step(started()[2], Running)
	ask := func(id string) event.Event {
		return event.ApprovalRequested{Meta: at(2 * time.Second), Request: &event.ApprovalRequest{ID: id, Kind: event.ApproveTool, Tool: "run_command"}}
	}
	step(ask("p1"), WaitingForApproval)
	step(ask("p2"), WaitingForApproval)
	step(event.ApprovalResolved{Meta: at(3 * time.Second), RequestID: "p1", Answer: event.Answer{Decision: event.Allow}}, WaitingForApproval)
	step(event.ApprovalResolved{Meta: at(3 * time.Second), RequestID: "p2", Answer: event.Answer{Decision: event.Deny}}, Running)
	step(event.AgentFinished{Meta: at(4 * time.Second), Status: event.StatusCompleted}, Done)
	step(requested()[0], Done)

	p = newPane()
	step(requested()[0], AwaitingApproval)
	step(event.ApprovalResolved{Meta: at(time.Second), RequestID: "a1", Answer: event.Answer{Decision: event.Deny}}, AwaitingApproval)
	step(event.AgentFinished{Meta: at(time.Second), Status: event.StatusDenied, Reason: "not now"}, Denied)
}

// TestFinalStates maps every engine status to its state, and an unknown
// one to failed.
func TestFinalStates(t *testing.T) {
	cases := map[event.Status]State{
		event.StatusCompleted: Done, event.StatusMaxSteps: MaxSteps, event.StatusFailed: Failed,
		event.StatusTimedOut: TimedOut, event.StatusCancelled: Cancelled, event.StatusDenied: Denied,
		event.StatusInterrupted: Interrupted, event.StatusBudgetExceeded: OverBudget, event.StatusStopped: WoundDown, "exploded": Failed,
	}
	for status, want := range cases {
		p := newPane()
		play(p, finished(status, ""))
		if p.State() != want || !want.Finished() {
			t.Errorf("%s: state = %v, want final %v", status, p.State(), want)
		}
	}
	for s := AwaitingApproval; s <= WoundDown; s++ {
		if s.String() == "unknown" || s.Finished() != (s >= Done) {
			t.Errorf("state %d: String %q, Finished %v", int(s), s.String(), s.Finished())
		}
	}
	if Cancelled.String() != "stopped" || State(99).String() != "unknown" {
		t.Error("Cancelled must read stopped, an unknown state unknown")
	}
}

// TestIgnoresOtherEvents: events of other agents, kinds a pane does not
// draw, malformed requests and anything after the finish change nothing.
func TestIgnoresOtherEvents(t *testing.T) {
	p := newPane()
	w, h := 100, 6
	play(p, tooling())
	before, info := p.View(w, h), p.Info()
	other := at(5 * time.Second)
	other.Agent = "plan-2"
	for _, ev := range []event.Event{
		nil,
		event.TextDelta{Meta: other, Text: "not mine"},
		event.AgentFinished{Meta: other, Status: event.StatusFailed},
		event.TurnStarted{Meta: at(5 * time.Second), Prompt: "hello"},
		event.TurnEnded{Meta: at(5 * time.Second), Status: event.StatusCompleted},
		event.ApprovalRequested{Meta: at(5 * time.Second)},
		event.ApprovalRequested{Meta: at(5 * time.Second), Request: &event.ApprovalRequest{ID: "z", Kind: "other"}},
		event.ApprovalResolved{Meta: at(5 * time.Second), RequestID: "unknown"},
		event.ToolFinished{Meta: other, CallID: "f"},
	} {
		p.Apply(ev)
	}
	if p.View(w, h) != before || !reflect.DeepEqual(p.Info(), info) {
		t.Errorf("unrelated events changed the pane:\n%s\n---\n%s", ansi.Strip(before), ansi.Strip(p.View(w, h)))
	}

	play(p, finished(event.StatusCompleted, "")[len(tooling()):])
	summary, entries := p.summary(w), len(p.convo.Entries())
	play(p, tooling())
	if p.summary(w) != summary || len(p.convo.Entries()) != entries || p.State() != Done {
		t.Error("events after the finish changed a finished pane")
	}
}

// TestInfo reports what the child runs with and has spent.
func TestInfo(t *testing.T) {
	p := newPane()
	play(p, tooling())
	p.SetNow(t0.Add(4200 * time.Millisecond))
	got := p.Info()
	want := Info{
		ID: "explore-1", Number: 1, Type: "Explore", Description: "find auth code", State: Running,
		Tools: 5, Steps: 6, MaxSteps: 15, Elapsed: 3200 * time.Millisecond, Started: t0.Add(time.Second),
		Tokens: 1234, PromptTokens: 1100, CompletionTokens: 134, Cost: 0.0021, CostKnown: true,
		Model: "gpt-4.1-mini", Timeout: 2 * time.Minute, ToolNames: []string{"read_file", "grep", "glob"},
		Transcript: "/tmp/sessions/s1/explore-1.jsonl", Prompt: "Find where sessions are authenticated.",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Info() =\n%+v\nwant\n%+v", got, want)
	}
	if p.ID() != "explore-1" || p.Number() != 1 || p.Meta().AgentType != "Explore" {
		t.Errorf("ID %q Number %d Meta %+v", p.ID(), p.Number(), p.Meta())
	}

	play(p, finished(event.StatusFailed, "provider said no")[len(tooling()):])
	got = p.Info()
	if got.State != Failed || got.Reason != "provider said no" || got.Tools != 8 || got.Steps != 7 ||
		got.Tokens != 3214 || got.Ended != t0.Add(6*time.Second) || got.Elapsed != 5100*time.Millisecond {
		t.Errorf("finished Info() = %+v", got)
	}
}

// TestEntries keeps the child's whole transcript in order, live while it
// streams.
func TestEntries(t *testing.T) {
	p := newPane()
	play(p, streaming())
	live := p.convo.Entries()
	last := live[len(live)-1]
	if last.Kind != convo.Text || !strings.HasSuffix(last.Body, "stale session with 401") || live[len(live)-2].Title != "reasoning" {
		t.Errorf("live entries end with %+v, want the reasoning then the text being streamed", live[len(live)-2:])
	}

	p = newPane()
	play(p, finished(event.StatusCompleted, ""))
	entries := p.convo.Entries()
	var kinds []convo.Kind
	for _, e := range entries {
		kinds = append(kinds, e.Kind)
	}
	want := []convo.Kind{convo.Prompt, convo.ToolCall, convo.ToolCall, convo.ToolCall, convo.ToolCall, convo.ToolCall, convo.ToolCall, convo.Text, convo.Status}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("entry kinds = %v, want %v", kinds, want)
	}
	if e := entries[0]; e.Body != "Find where sessions are authenticated." {
		t.Errorf("prompt entry = %+v", e)
	}
	if e := entries[3]; e.Title != "read_file internal/auth/session.go" || e.Summary != "180 lines" || e.Body != "…" {
		t.Errorf("tool entry = %+v", e)
	}
	if e := entries[6]; e.Title != `grep "func Login"` || e.Summary != "1 match" {
		t.Errorf("last tool entry = %+v", e)
	}
	if e := entries[8]; e.Title != "done" || e.Summary != "8 tools, 5.1s, 3.2k tok, $0.004" || e.IsError {
		t.Errorf("status entry = %+v", e)
	}

	p = newPane()
	play(p, append(tooling(),
		event.AgentMessage{Meta: at(3 * time.Second), Text: "check the cookie flags too"},
		event.Notice{Meta: at(3 * time.Second), Text: "fell back to gpt-4.1"},
		event.ErrorOccurred{Meta: at(3 * time.Second), Message: "rate limited (429)"},
		event.AgentFinished{Meta: at(3 * time.Second), Status: event.StatusFailed}))
	entries = p.convo.Entries()
	tail := entries[len(entries)-5:]
	if tail[0].Summary != "no result: failed" || tail[1].Kind != convo.Message || tail[1].Body != "check the cookie flags too" ||
		tail[2].Kind != convo.Notice || tail[3].Kind != convo.Notice || !tail[3].IsError || tail[4].Body != "rate limited (429)" || !tail[4].IsError {
		t.Errorf("last entries = %+v", tail)
	}
}

// TestFormats pins the short forms of numbers the panes share.
func TestFormats(t *testing.T) {
	cases := [][2]string{
		{tokens(0), "0 tok"}, {tokens(800), "800 tok"}, {tokens(1234), "1.2k tok"}, {tokens(3_400_000), "3.4M tok"},
		{elapsed(-time.Second), "0.0s"}, {elapsed(3240 * time.Millisecond), "3.2s"}, {elapsed(59960 * time.Millisecond), "59.9s"},
		{elapsed(125 * time.Second), "2m05s"}, {elapsed(time.Hour + 2*time.Minute + 5*time.Second), "1h02m05s"},
		{cost(0), "$0.000"}, {cost(0.0041), "$0.004"}, {cost(0.0001), "<$0.001"}, {cost(1.5), "$1.500"},
		{plural(1, "tool"), "1 tool"}, {plural(2, "tool"), "2 tools"},
	}
	for _, c := range cases {
		if c[0] != c[1] {
			t.Errorf("got %q, want %q", c[0], c[1])
		}
	}
}
