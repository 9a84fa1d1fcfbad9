package child_test

import (
	"fmt"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// Every child's events carry its number and the parent's task call;
// every approval names the call asking. Numbers count the session, as
// ids do: a second turn's children are #3 and #4, never a second #1, so
// "#1" names one child in every turn and the number is the id's.
func TestEventsCarryTheChildsIdentity(t *testing.T) {
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			if r.Index%2 == 0 {
				w.ToolCalls(llmtest.Call{ID: "w1", Name: "run_command", Args: `{"command":"true"}`})
				return
			}
			w.Text("done")
		case r.Body.Messages[len(r.Body.Messages)-1].Role == "user":
			w.ToolCalls(sessiontest.TaskCall("t-a", "general-purpose", "first", "First."), sessiontest.TaskCall("t-b", "general-purpose", "second", "Second."))
		default:
			w.Text("ok")
		}
	}, func(c *engine.Config) { c.Mode = permission.Ask })
	calls := map[string]string{} // approval request → call asking
	answer := func(r *event.ApprovalRequest) event.Answer {
		calls[r.ID] = string(r.Kind) + " " + r.CallID
		return event.Answer{Decision: event.Allow}
	}
	for turn := range 2 {
		log := sessiontest.RunTurn(t, s, "go", answer)
		numbers := map[string]int{}
		for _, ev := range sessiontest.Of[event.AgentStarted](log) {
			numbers[ev.TaskCall] = ev.Number
			if ev.Parent != event.MainAgent || string(ev.Agent) != fmt.Sprintf("general-purpose-%d", ev.Number) {
				t.Errorf("turn %d: child meta %+v: its id does not say its number", turn, ev.Meta)
			}
		}
		if numbers["t-a"] != 2*turn+1 || numbers["t-b"] != 2*turn+2 {
			t.Errorf("turn %d: numbers by task call %v, want t-a %d and t-b %d", turn, numbers, 2*turn+1, 2*turn+2)
		}
		for _, ev := range sessiontest.Of[event.ApprovalRequested](log) {
			want := ev.TaskCall
			if ev.Request.Kind == event.ApproveTool {
				want = "w1"
			}
			if ev.Request.CallID != want || want == "" {
				t.Errorf("turn %d: %s approval of %s names call %q, want %q", turn, ev.Request.Kind, ev.Agent, ev.Request.CallID, want)
			}
		}
	}
	if len(calls) == 0 {
		t.Fatal("nothing asked for approval")
	}
}

// A provider error mid-answer ends the partial message before the error
// is told: the partial text is one MessageDone, and it comes first.
func TestPartialAnswerEndsBeforeTheError(t *testing.T) {
	s, _ := newTestSession(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		w.Chunk(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": "Half an answer"}}}})
		w.Raw("data: {not json")
	}, nil)
	log := sessiontest.RunTurn(t, s, "hi", nil)
	done, failed := -1, -1
	for i, ev := range log.Events() {
		switch e := ev.(type) {
		case event.MessageDone:
			if e.Text == "Half an answer" {
				done = i
			}
		case event.ErrorOccurred:
			failed = i
		}
	}
	if done < 0 || failed < 0 || done > failed {
		t.Fatalf("partial message at %d, error at %d; want the message first", done, failed)
	}
}
