package child_test

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

func TestBackgroundKeyReturnsTheWaitingCall(t *testing.T) {
	release := make(sessiontest.Gate)
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			if release.Wait(w) {
				w.Text("FOUND-IT")
			}
		case sessiontest.HasUser(r, "[#1 done]"):
			w.Text("thanks for the result")
		case r.HasToolResult("started #1 in the background"):
			w.Text("it went to the background")
		default:
			w.ToolCalls(sessiontest.TaskCall("t1", "explore", "find auth code", "Find the auth code."))
		}
	}, nil)
	var backgroundErr error
	log := sessiontest.WatchTurn(t, s, "find auth", func(ev event.Event) {
		if e, ok := ev.(event.AgentStarted); ok {
			backgroundErr = s.Background(e.Agent)
		}
	})
	if backgroundErr != nil || log.End.Text != "it went to the background" {
		t.Fatalf("b: %v; turn ended %q", backgroundErr, log.End.Text)
	}
	if b := sessiontest.Of[event.AgentBackgrounded](log); len(b) != 1 || b[0].By != "person" {
		t.Fatalf("backgrounded events %+v", b)
	}
	if err := s.Background("explore-1"); err == nil || !strings.Contains(err.Error(), "already") {
		t.Fatalf("a second b: %v", err)
	}
	close(release)
	sessiontest.ReadUntil(t, s, sessiontest.MainEnded)
	found := false
	for _, r := range srv.Requests() {
		found = found || sessiontest.HasUser(r, "FOUND-IT")
	}
	if !found {
		t.Fatal("the backgrounded child's result never reached the main agent")
	}
}

func TestBackgroundIsRefusedForAChildStillAwaitingApproval(t *testing.T) {
	s, _ := newTestSession(t, sessiontest.DelegatingScript(false), func(c *engine.Config) { c.Mode = permission.Ask })
	log := sessiontest.RunTurn(t, s, "find auth", func(req *event.ApprovalRequest) event.Answer {
		if err := s.Background("explore-1"); err == nil || !strings.Contains(err.Error(), "approve it first") {
			t.Errorf("b before approval: %v", err)
		}
		return event.Answer{Decision: event.Allow}
	})
	if log.End.Status != event.StatusCompleted {
		t.Fatalf("turn %s", log.End.Status)
	}
	if err := s.Background("explore-1"); err == nil || !strings.Contains(err.Error(), "ended") {
		t.Fatalf("b after the end: %v", err)
	}
}
