package engine

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

func TestBackgroundKeyReturnsTheWaitingCall(t *testing.T) {
	release := make(gate)
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			if release.wait(w) {
				w.Text("FOUND-IT")
			}
		case hasUser(r, "[#1 done]"):
			w.Text("thanks for the result")
		case r.HasToolResult("started #1 in the background"):
			w.Text("it went to the background")
		default:
			w.ToolCalls(taskCall("t1", "explore", "find auth code", "Find the auth code."))
		}
	}, nil)
	var backgroundErr error
	log := watchTurn(t, s, "find auth", func(ev event.Event) {
		if e, ok := ev.(event.AgentStarted); ok {
			backgroundErr = s.Background(e.Agent)
		}
	})
	if backgroundErr != nil || log.end.Text != "it went to the background" {
		t.Fatalf("b: %v; turn ended %q", backgroundErr, log.end.Text)
	}
	if b := eventsOf[event.AgentBackgrounded](log); len(b) != 1 || b[0].By != "person" {
		t.Fatalf("backgrounded events %+v", b)
	}
	if err := s.Background("explore-1"); err == nil || !strings.Contains(err.Error(), "already") {
		t.Fatalf("a second b: %v", err)
	}
	close(release)
	readUntil(t, s, mainEnded)
	found := false
	for _, r := range srv.Requests() {
		found = found || hasUser(r, "FOUND-IT")
	}
	if !found {
		t.Fatal("the backgrounded child's result never reached the main agent")
	}
}

func TestBackgroundIsRefusedForAChildStillAwaitingApproval(t *testing.T) {
	s, _ := newTestSession(t, delegatingScript(false), func(c *Config) { c.Mode = permission.Ask })
	log := runTurn(t, s, "find auth", func(req *event.ApprovalRequest) event.Answer {
		if err := s.Background("explore-1"); err == nil || !strings.Contains(err.Error(), "approve it first") {
			t.Errorf("b before approval: %v", err)
		}
		return event.Answer{Decision: event.Allow}
	})
	if log.end.Status != event.StatusCompleted {
		t.Fatalf("turn %s", log.end.Status)
	}
	if err := s.Background("explore-1"); err == nil || !strings.Contains(err.Error(), "ended") {
		t.Fatalf("b after the end: %v", err)
	}
}
