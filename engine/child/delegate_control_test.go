package child_test

import (
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

func TestStoppedChildLeavesSiblingsRunning(t *testing.T) {
	release := make(chan struct{})
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			w.Chunk(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": "working on " + r.LastUser()}}}})
			if r.LastUser() == "victim job" {
				// The victim streams until it is stopped: releasing it too
				// would race the stop with a completed reply.
				<-w.Context().Done()
				return
			}
			select {
			case <-release:
				w.Text(" and finished")
			case <-w.Context().Done():
			}
		case r.Index == 0:
			w.ToolCalls(sessiontest.TaskCall("a", "explore", "victim", "victim job"), sessiontest.TaskCall("b", "explore", "survivor", "survivor job"))
		default:
			w.Text("done")
		}
	}, nil)
	streaming := map[string]event.AgentID{}
	log := sessiontest.WatchTurn(t, s, "go", func(ev event.Event) {
		d, ok := ev.(event.TextDelta)
		if !ok || d.Agent == event.MainAgent || streaming[d.Description] != "" {
			return
		}
		streaming[d.Description] = d.Agent
		if len(streaming) == 2 {
			if err := s.StopAgent(streaming["victim"]); err != nil {
				t.Errorf("StopAgent: %v", err)
			}
			close(release)
		}
	})
	statuses := map[string]event.Status{}
	for _, f := range sessiontest.Of[event.AgentFinished](log) {
		statuses[f.Description] = f.Status
	}
	if statuses["victim"] != event.StatusCancelled || statuses["survivor"] != event.StatusCompleted {
		t.Fatalf("statuses %v", statuses)
	}
	results := sessiontest.ToolMessages(srv.Requests()[len(srv.Requests())-1])
	sessiontest.Contains(t, "stopped child's result", results[0], "working on victim job")
	sessiontest.Contains(t, "stopped child's result", results[0], "status: cancelled")
	sessiontest.Contains(t, "survivor's result", results[1], "status: completed")
}

func TestDeniedDelegationReachesParent(t *testing.T) {
	cases := []struct {
		name   string
		mode   permission.Mode
		answer event.Answer
		want   string
	}{
		{"person denies with reason", permission.Ask, event.Answer{Decision: event.Deny, Reason: "too expensive"}, "too expensive"},
		{"headless without --allow task", permission.Headless, event.Answer{}, "--allow task"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
				switch {
				case sessiontest.IsChild(r):
					t.Error("a denied child must not run")
				case r.Index == 0:
					w.ToolCalls(sessiontest.TaskCall("t1", "explore", "look around", "Look around."))
				default:
					w.Text("fine")
				}
			}, func(c *engine.Config) { c.Mode = tc.mode })
			sessiontest.RunTurn(t, s, "go", func(*event.ApprovalRequest) event.Answer { return tc.answer })
			result := sessiontest.ToolMessages(srv.Requests()[1])[0]
			sessiontest.Contains(t, "result", result, "status: denied")
			sessiontest.Contains(t, "result", result, tc.want)
		})
	}
}

func TestEditedPromptReplacesTaskPrompt(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			w.Text("ok")
		case r.Index == 0:
			w.ToolCalls(sessiontest.TaskCall("t1", "explore", "look", "Original prompt."))
		default:
			w.Text("fine")
		}
	}, func(c *engine.Config) { c.Mode = permission.Ask })
	sessiontest.RunTurn(t, s, "go", func(r *event.ApprovalRequest) event.Answer {
		if r.Kind != event.ApproveDelegation || r.Delegation.AgentType != "Explore" || r.Delegation.EstimatedTokens == 0 {
			t.Errorf("approval request %+v", r)
		}
		return event.Answer{Decision: event.Allow, EditedPrompt: "Edited prompt."}
	})
	if len(sessiontest.ChildByPrompt(srv.Requests(), "Edited prompt.")) != 1 {
		t.Fatal("the child did not receive the edited prompt")
	}
}

func TestInterruptStopsChildren(t *testing.T) {
	childIn := make(chan struct{})
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			close(childIn)
			<-w.Context().Done()
		default:
			w.ToolCalls(sessiontest.TaskCall("t1", "explore", "forever", "Run forever."))
		}
	}, nil)
	go func() {
		<-childIn
		s.Interrupt()
	}()
	log := sessiontest.RunTurn(t, s, "go", nil)
	if log.End.Status != event.StatusInterrupted {
		t.Fatalf("turn status %s", log.End.Status)
	}
	finished := sessiontest.Of[event.AgentFinished](log)
	if len(finished) != 1 || finished[0].Status != event.StatusCancelled {
		t.Fatalf("child %+v", finished)
	}
}

func TestSendToAgentDeliversBeforeNextRequest(t *testing.T) {
	firstIn := make(chan struct{})
	proceed := make(chan struct{})
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r) && len(sessiontest.ToolMessages(r)) == 0:
			close(firstIn)
			<-proceed
			w.ToolCalls(llmtest.Call{Name: "list_files", Args: `{}`})
		case sessiontest.IsChild(r):
			w.Text("noted")
		case r.Index == 0:
			w.ToolCalls(sessiontest.TaskCall("t1", "explore", "steerable", "Be steered."))
		default:
			w.Text("fine")
		}
	}, nil)
	go func() {
		<-firstIn
		if err := s.SendToAgent("explore-1", "also check vendor/"); err != nil {
			t.Errorf("SendToAgent: %v", err)
		}
		close(proceed)
	}()
	log := sessiontest.RunTurn(t, s, "go", nil)
	reqs := sessiontest.ChildByPrompt(srv.Requests(), "Be steered.")
	last := reqs[len(reqs)-1].Body.Messages
	sessiontest.Contains(t, "steered request", last[len(last)-1].Content, "also check vendor/")
	if len(sessiontest.Of[event.AgentMessage](log)) != 1 {
		t.Fatal("no AgentMessage event")
	}
}
