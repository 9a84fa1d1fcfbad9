package event

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

// Every kind a transcript replays comes back as itself, with its kind
// first, and its Meta is where the event's identity is read.
func TestEveryReplayedKindRoundTrips(t *testing.T) {
	meta := Meta{Agent: "c1", Number: 2, Parent: MainAgent, TaskCall: "t1"}
	for kind, dec := range decoders() {
		zero, err := dec([]byte(`{"agent":"c1","number":2,"parent":"main","task_call":"t1"}`))
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if zero.Kind() != kind {
			t.Errorf("the decoder for %s makes a %s", kind, zero.Kind())
		}
		if got := zero.EventMeta(); got.Agent != meta.Agent || got.Parent != meta.Parent || got.TaskCall != meta.TaskCall {
			t.Errorf("%s: meta %+v", kind, got)
		}
		data, err := MarshalEvent(zero)
		if err != nil || !strings.HasPrefix(string(data), `{"type":"`+kind+`"`) {
			t.Fatalf("%s: %s, %v", kind, data, err)
		}
		if back, err := UnmarshalEvent(data); err != nil || back.Kind() != kind {
			t.Errorf("%s came back as %v, %v", kind, back, err)
		}
	}
}

// The kinds that are never replayed still say what they are, for
// stream-json; decoding them, or garbage, is an error that says why.
func TestLiveOnlyKindsAndBadInput(t *testing.T) {
	for _, c := range []struct {
		ev   Event
		want string
	}{
		{TextDelta{}, "text"}, {ReasoningDelta{}, "reasoning"}, {StepStarted{}, "step"},
		{ApprovalRequested{}, "approval_requested"}, {ModeChanged{}, "mode_changed"}, {Retrying{}, "retrying"},
		{ResultQueued{}, "result_queued"}, {ResultsHeld{}, "results_held"},
	} {
		ev, want := c.ev, c.want
		if ev.Kind() != want {
			t.Errorf("%T is %q, want %q", ev, ev.Kind(), want)
		}
		data, err := MarshalEvent(ev)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := UnmarshalEvent(data); err == nil || !strings.Contains(err.Error(), "cannot be replayed") {
			t.Errorf("%s replayed: %v", want, err)
		}
	}
	for _, bad := range []string{`not json`, `{"type":"turn_started","prompt":3}`} {
		if _, err := UnmarshalEvent([]byte(bad)); err == nil {
			t.Errorf("UnmarshalEvent(%s) succeeded", bad)
		}
	}
	if _, err := MarshalEvent(UsageReported{Total: Usage{Cost: math.NaN()}}); err == nil || !strings.Contains(err.Error(), "encode usage event") {
		t.Errorf("an event JSON cannot hold: %v", err)
	}
	if data, err := MarshalEvent(ConversationCleared{}); err != nil || !strings.HasPrefix(string(data), `{"type":"conversation_cleared"`) {
		t.Errorf("an event with no fields: %s, %v", data, err)
	}
}

// An approval is answered once: the first answer is the one waited for,
// later ones are ignored and never block; a wait whose context ends is a
// denial.
func TestApprovalRequestAnswersOnce(t *testing.T) {
	req := NewApprovalRequest("ap-1", ApproveTool)
	done := make(chan Answer)
	go func() { done <- req.Wait(context.Background()) }()
	req.Answer(Answer{Decision: Allow})
	req.Answer(Answer{Decision: Deny}) // ignored, and does not block
	if got := <-done; got.Decision != Allow {
		t.Errorf("waited for %+v", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := NewApprovalRequest("ap-2", ApproveTool).Wait(ctx); got.Decision != Deny || got.Reason == "" {
		t.Errorf("a cancelled wait: %+v", got)
	}
}

// The small words people read: modes, statuses, marks and lines.
func TestWordsPeopleRead(t *testing.T) {
	for mode, want := range map[AgentMode]string{AgentModeNormal: "normal mode", AgentModeAutoAccept: "auto-accept edits", AgentModePlan: "plan mode"} {
		if mode.Label() != want {
			t.Errorf("%s: %q", mode, mode.Label())
		}
	}
	if AgentModeNormal.Next() != AgentModeAutoAccept || AgentModePlan.Next() != AgentModeNormal || AgentMode("odd").Next() != AgentModeNormal {
		t.Error("the modes do not cycle in order")
	}
	for s, want := range map[Status]string{StatusCompleted: "done", StatusTimedOut: "timed out", StatusMaxSteps: "max steps", StatusFailed: "failed"} {
		if s.Word() != want {
			t.Errorf("%s: %q", s, s.Word())
		}
	}
	for v, want := range map[*Verification]string{
		{Passed: true}: "verified ✓", {TimedOut: true, Timeout: 30400 * time.Millisecond}: "✗ verify timed out after 30s",
		{Error: "no make"}: "✗ verify could not run", {Failing: 3}: "✗ 3 failing", {Exit: 2}: "✗ verify failed (exit 2)",
	} {
		if v.Mark() != want {
			t.Errorf("%+v: %q, want %q", *v, v.Mark(), want)
		}
	}
	if got := (Change{Added: 42, Removed: 7, Files: 3}).Line(); got != "+42 −7 in 3 files" {
		t.Errorf("change line %q", got)
	}
	if got := (Change{Added: 1, Files: 1}).Line(); got != "+1 −0 in 1 file" {
		t.Errorf("change line %q", got)
	}
	if got := (ResultsHeld{Children: []AgentID{"a"}, WakeTurns: 3}).Text(); got != "the result of a waits for the next prompt (limits.wake_turns_per_prompt = 3 reached)" {
		t.Errorf("one held: %q", got)
	}
	if got := (ResultsHeld{Children: []AgentID{"a", "b"}, WakeTurns: 3}).Text(); !strings.HasPrefix(got, "the results of a, b wait") {
		t.Errorf("two held: %q", got)
	}
	if got := (Stats{Usage: Usage{TotalTokens: -1234567, Cost: 0.5, CostKnown: true}}).Line(); got != "0 tools · 0.0s · -1,234,567 tokens · $0.5000" {
		t.Errorf("stats line %q", got)
	}
	if data, _ := json.Marshal(Stats{Duration: 1500 * time.Millisecond}); !strings.Contains(string(data), `"duration_ms":1500`) {
		t.Errorf("stats JSON %s", data)
	}
}

// A todo is done once completed or cancelled; a review file is pending
// while it or any hunk is undecided; a server has settled once it is
// connected, failed or not started.
func TestStates(t *testing.T) {
	for status, done := range map[TodoStatus]bool{TodoCompleted: true, TodoCancelled: true, TodoPending: false, TodoInProgress: false} {
		if (Todo{Status: status}).Done() != done {
			t.Errorf("todo %s done %v", status, !done)
		}
	}
	if !(ReviewFile{}).Pending() || (ReviewFile{Decision: DecisionApplied}).Pending() {
		t.Error("a file without hunks")
	}
	if !(ReviewFile{Hunks: []ReviewHunk{{Decision: DecisionApplied}, {}}}).Pending() || (ReviewFile{Hunks: []ReviewHunk{{Decision: DecisionSkipped}}}).Pending() {
		t.Error("a file with hunks")
	}
	for state, settled := range map[MCPState]bool{MCPConnected: true, MCPFailed: true, MCPNotStarted: true, MCPStarting: false} {
		if (MCPServer{State: state}).Settled() != settled {
			t.Errorf("%s settled %v", state, !settled)
		}
	}
	long := strings.Repeat("x", 50)
	p := MCPPrompt{Command: "mcp__srv__greet", Arguments: []MCPPromptArgument{{Name: "city", Required: true}, {Name: "state"}, {Name: long, Required: true}}}
	if got := p.Usage(); got != "/mcp__srv__greet CITY [STATE] "+strings.Repeat("X", 40)+"…" {
		t.Errorf("usage %q", got)
	}
}

// Usage adds up, and the sum's cost is known only while every part that
// used tokens had a known cost.
func TestUsageAdd(t *testing.T) {
	known := Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15, Cost: 0.01, CostKnown: true, Requests: 1}
	unknown := Usage{TotalTokens: 7, Requests: 1}
	sum := Usage{}.Add(known).Add(known)
	if sum.TotalTokens != 30 || sum.Requests != 2 || !sum.CostKnown || sum.Cost != 0.02 || sum.PromptTokens != 20 || sum.CompletionTokens != 10 {
		t.Errorf("known + known = %+v", sum)
	}
	if sum.Add(unknown).CostKnown {
		t.Error("a part with tokens and no cost left the sum's cost known")
	}
	if !sum.Add(Usage{}).CostKnown {
		t.Error("an empty part made the cost unknown")
	}
}
