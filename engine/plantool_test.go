package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// In plan mode the model is told so, a write is refused, and the plan it
// offers with exit_plan_mode waits for the person: accepting it ends
// plan mode (normal: the write then asks; auto-accept: it runs at once)
// in the same turn, declining keeps plan mode and tells the model what to
// change.
func TestPlanModeEndsWhenThePersonAcceptsThePlan(t *testing.T) {
	const plan = "1. write notes.txt\n2. check it"
	for _, tc := range []struct {
		name      string
		answer    event.Answer
		mode      AgentMode
		written   bool
		writeCard bool
	}{
		{"accepted", event.Answer{Decision: event.Allow}, AgentModeNormal, true, true},
		{"accepted auto-accepting edits", event.Answer{Decision: event.AllowAlways}, AgentModeAutoAccept, true, false},
		{"declined", event.Answer{Decision: event.Deny, Reason: "name it todo.txt"}, AgentModePlan, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var offered [][]string
			s, srv := newTestSession(t, func(req *llmtest.Request, w *llmtest.Writer) {
				offered = append(offered, req.ToolNames())
				switch {
				case req.HasToolResult("created") || req.HasToolResult("wrote") || req.HasToolResult("asks for changes"):
					w.Text("done")
				case req.HasToolResult("accepted the plan"):
					w.ToolCalls(llmtest.Call{ID: "w2", Name: "write_file", Args: `{"path":"notes.txt","content":"hi\n"}`})
				case req.HasToolResult("plan mode"):
					w.ToolCalls(llmtest.Call{ID: "p1", Name: ExitPlanToolName, Args: `{"plan":"1. write notes.txt\n2. check it"}`})
				default:
					w.ToolCalls(llmtest.Call{ID: "w1", Name: "write_file", Args: `{"path":"notes.txt","content":"early\n"}`})
				}
			}, func(c *Config) { c.Mode = permission.Ask })
			if err := s.SetAgentMode(AgentModePlan); err != nil {
				t.Fatal(err)
			}
			var cards []*event.ApprovalRequest
			log := runTurn(t, s, "add notes", func(r *event.ApprovalRequest) event.Answer {
				cards = append(cards, r)
				if r.Kind == event.ApprovePlan {
					return tc.answer
				}
				return event.Answer{Decision: event.Allow}
			})
			if log.End.Status != event.StatusCompleted {
				t.Fatalf("turn ended %s", log.End.Status)
			}
			reqs := srv.Requests()
			if first := reqs[0].LastUser(); !strings.HasPrefix(first, "add notes") || !strings.Contains(first, ExitPlanToolName) {
				t.Errorf("the plan-mode prompt does not tell the model about plan mode:\n%s", first)
			}
			if !reqs[1].HasToolResult("plan mode") {
				t.Errorf("the early write was not refused for plan mode")
			}
			if !slices.Contains(offered[0], ExitPlanToolName) {
				t.Errorf("plan mode does not offer %s: %v", ExitPlanToolName, offered[0])
			}
			if len(cards) == 0 || cards[0].Kind != event.ApprovePlan || cards[0].Preview != plan || cards[0].CallID != "p1" {
				t.Fatalf("the first card is not the plan: %+v", cards)
			}
			if got := s.AgentMode(); got != tc.mode {
				t.Errorf("mode after the answer = %s, want %s", got, tc.mode)
			}
			gotWriteCard := len(cards) > 1 && cards[1].Tool == "write_file"
			if gotWriteCard != tc.writeCard {
				t.Errorf("write card after the plan = %v, want %v (cards %d)", gotWriteCard, tc.writeCard, len(cards))
			}
			data, err := os.ReadFile(filepath.Join(s.Workspace(), "notes.txt"))
			if written := err == nil; written != tc.written || written && string(data) != "hi\n" {
				t.Errorf("notes.txt written = %v (%q), want %v", written, data, tc.written)
			}
			changed := eventsOf[event.ModeChanged](log)
			switch {
			case tc.mode == AgentModePlan && slices.ContainsFunc(changed, func(e event.ModeChanged) bool { return e.PlanAccepted }):
				t.Errorf("a declined plan said plan mode ended: %+v", changed)
			case tc.mode != AgentModePlan && !slices.ContainsFunc(changed, func(e event.ModeChanged) bool { return e.PlanAccepted && e.Mode == tc.mode }):
				t.Errorf("no ModeChanged to %s for the accepted plan: %+v", tc.mode, changed)
			}
			last := offered[len(offered)-1]
			if tc.mode != AgentModePlan && slices.Contains(last, ExitPlanToolName) {
				t.Errorf("%s is still offered out of plan mode", ExitPlanToolName)
			}
			if tc.mode == AgentModePlan && !reqs[len(reqs)-1].HasToolResult("name it todo.txt") {
				t.Errorf("the reason for declining did not reach the model")
			}
		})
	}
}

// Out of plan mode the tool is not offered, and no prompt carries the
// plan-mode note; a headless run in plan mode cannot wait for a person.
func TestExitPlanModeOnlyInPlanMode(t *testing.T) {
	s, srv := newTestSession(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("ok") }, nil)
	runTurn(t, s, "hello", nil)
	req := srv.Requests()[0]
	if slices.Contains(req.ToolNames(), ExitPlanToolName) || strings.Contains(req.LastUser(), ExitPlanToolName) {
		t.Errorf("normal mode offers or mentions %s", ExitPlanToolName)
	}

	h, _ := newTestSession(t, func(req *llmtest.Request, w *llmtest.Writer) {
		if req.Index == 0 {
			w.ToolCalls(llmtest.Call{Name: ExitPlanToolName, Args: `{"plan":"do it"}`})
			return
		}
		w.Text("ok")
	}, func(c *Config) { c.Mode = permission.Headless })
	if err := h.SetAgentMode(AgentModePlan); err != nil {
		t.Fatal(err)
	}
	log := runTurn(t, h, "plan", func(*event.ApprovalRequest) event.Answer {
		t.Error("a headless run asked")
		return event.Answer{Decision: event.Deny}
	})
	fin := eventsOf[event.ToolFinished](log)
	if len(fin) != 1 || !fin[0].IsError || !strings.Contains(fin[0].Output, "headless") {
		t.Errorf("headless exit_plan_mode: %+v", fin)
	}
	if h.AgentMode() != AgentModePlan {
		t.Errorf("headless left plan mode")
	}
}
