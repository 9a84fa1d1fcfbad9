package engine

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// bgCall is a task call that runs an explore child in the background.
func bgCall(id, desc, prompt string) llmtest.Call {
	return llmtest.Call{ID: id, Name: child.TaskToolName, Args: fmt.Sprintf(`{"description":%q,"prompt":%q,"subagent_type":"explore","background":true}`, desc, prompt)}
}

// readUntil reads events, handing each to watch, until stop says so.
func readUntil(t testing.TB, s *Session, stop func(event.Event) bool) []event.Event {
	t.Helper()
	var seen []event.Event
	deadline := time.After(testTimeout)
	for {
		select {
		case ev, ok := <-s.Events():
			if !ok {
				t.Fatal("event channel closed early")
			}
			seen = append(seen, ev)
			if stop(ev) {
				return seen
			}
		case <-deadline:
			t.Fatal("the awaited event never came")
		}
	}
}

// mainEnded stops at the main agent's TurnEnded.
func mainEnded(ev event.Event) bool {
	e, ok := ev.(event.TurnEnded)
	return ok && e.Agent == event.MainAgent
}

// hasUser reports whether a request carries a user message containing sub.
func hasUser(r *llmtest.Request, sub string) bool {
	for _, m := range r.Body.Messages {
		if m.Role == "user" && strings.Contains(m.Content, sub) {
			return true
		}
	}
	return false
}

// gate is a channel a scripted child waits on, closed by the test.
type gate chan struct{}

// wait blocks a responder until the gate opens or the request ends.
func (g gate) wait(w *llmtest.Writer) bool {
	select {
	case <-g:
		return true
	case <-w.Context().Done():
		return false
	}
}

func TestBackgroundChildReturnsAtOnceAndItsResultIsInjectedBeforeTheNextRequest(t *testing.T) {
	release, queued := make(gate), make(gate)
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			if release.wait(w) {
				w.Text("FOUND-IT in auth.go")
			}
		case hasUser(r, "[#1 done]"):
			w.Text("main saw the result")
		case r.HasToolResult("started #1 in the background"):
			// The main turn goes on while the child works; let it end
			// now and take the next request once its result waits.
			close(release)
			if queued.wait(w) {
				w.ToolCalls(llmtest.Call{ID: "l1", Name: "list_files", Args: `{}`})
			}
		default:
			w.ToolCalls(bgCall("t1", "find auth code", "Find the auth code."))
		}
	}, nil)
	log := watchTurn(t, s, "find auth in the background", func(ev event.Event) {
		if _, ok := ev.(event.ResultQueued); ok {
			close(queued)
		}
	})
	if log.end.Status != event.StatusCompleted || log.end.Text != "main saw the result" {
		t.Fatalf("turn ended %s: %q", log.end.Status, log.end.Text)
	}
	var kinds []string
	for _, ev := range log.events {
		switch e := ev.(type) {
		case event.AgentBackgrounded, event.AgentStarted, event.AgentFinished, event.ResultQueued, event.ResultDelivered:
			kinds = append(kinds, ev.Kind())
		case event.ToolFinished:
			if e.Name == child.TaskToolName {
				kinds = append(kinds, "task_returned")
			}
		}
	}
	want := "agent_backgrounded task_returned agent_started agent_finished result_queued result_delivered"
	if got := strings.Join(kinds, " "); got != want && got != strings.Replace(want, "task_returned agent_started", "agent_started task_returned", 1) {
		t.Fatalf("order of events: %s", got)
	}
	var last *llmtest.Request
	for _, r := range srv.Requests() {
		if !isChild(r) {
			last = r
		}
	}
	msgs := last.Body.Messages
	if msgs[len(msgs)-2].Role != "tool" || !strings.Contains(msgs[len(msgs)-1].Content, "FOUND-IT in auth.go") ||
		!strings.HasPrefix(msgs[len(msgs)-1].Content, "[#1 done] explore-1 (find auth code)") {
		t.Fatalf("the result did not come right before the next request: %+v", msgs[len(msgs)-2:])
	}
	if err := last.StrictHistory(); err != nil {
		t.Fatalf("history after injection: %v", err)
	}
}

func TestBackgroundResultWhileIdleStartsAWakeTurn(t *testing.T) {
	release := make(gate)
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			if release.wait(w) {
				w.Text("FOUND-IT")
			}
		case hasUser(r, "[#1 done]"):
			w.Text("woke up with the result")
		case r.HasToolResult("started #1"):
			w.Text("it runs; ask me anything")
		default:
			w.ToolCalls(bgCall("t1", "find auth code", "Find the auth code."))
		}
	}, nil)
	first := runTurn(t, s, "start it", nil)
	if first.end.Text != "it runs; ask me anything" || s.Quiet() {
		t.Fatalf("first turn %q, quiet %v", first.end.Text, s.Quiet())
	}
	close(release)
	var started event.TurnStarted
	events := readUntil(t, s, func(ev event.Event) bool {
		if e, ok := ev.(event.TurnStarted); ok {
			started = e
		}
		return mainEnded(ev)
	})
	if !started.Wake || !strings.HasPrefix(started.Prompt, "[#1 done] explore-1") {
		t.Fatalf("wake turn started with %+v", started)
	}
	if end := events[len(events)-1].(event.TurnEnded); end.Text != "woke up with the result" {
		t.Fatalf("wake turn ended with %q", end.Text)
	}
	if !s.Quiet() {
		t.Fatal("the session is not quiet after the wake turn")
	}
	for _, r := range srv.Requests() {
		if hasUser(r, "[#1 done]") && !hasUser(r, "FOUND-IT") {
			t.Fatal("the wake turn's message lacks the child's text")
		}
	}
}

func TestWakeOnResultOffWaitsForTheNextPrompt(t *testing.T) {
	release := make(gate)
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			if release.wait(w) {
				w.Text("FOUND-IT")
			}
		case lastIsUser(r, "start it"):
			w.ToolCalls(bgCall("t1", "find auth code", "Find the auth code."))
		default:
			w.Text("ok")
		}
	}, func(c *Config) { c.NoWakeOnResult = true })
	runTurn(t, s, "start it", nil)
	close(release)
	var q event.ResultQueued
	readUntil(t, s, func(ev event.Event) bool {
		q, _ = ev.(event.ResultQueued)
		return q.Agent != ""
	})
	if !q.Waits || !s.Quiet() {
		t.Fatalf("result queued %+v, quiet %v: a wake turn started", q, s.Quiet())
	}
	runTurn(t, s, "what next", nil)
	last := srv.Requests()[len(srv.Requests())-1]
	msgs := last.Body.Messages
	if !strings.HasPrefix(msgs[len(msgs)-2].Content, "[#1 done]") || msgs[len(msgs)-1].Content != "what next" {
		t.Fatalf("the result did not come before the prompt: %+v", msgs[len(msgs)-2:])
	}
}
