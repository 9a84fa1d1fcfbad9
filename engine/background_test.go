package engine

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

func TestBackgroundChildReturnsAtOnceAndItsResultIsInjectedBeforeTheNextRequest(t *testing.T) {
	release, queued := make(gate), make(gate)
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			if release.Wait(w) {
				w.Text("FOUND-IT in auth.go")
			}
		case hasUser(r, "[#1 done]"):
			w.Text("main saw the result")
		case r.HasToolResult("started #1 in the background"):
			// The main turn goes on while the child works; let it end
			// now and take the next request once its result waits.
			close(release)
			if queued.Wait(w) {
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
	if log.End.Status != event.StatusCompleted || log.End.Text != "main saw the result" {
		t.Fatalf("turn ended %s: %q", log.End.Status, log.End.Text)
	}
	var kinds []string
	for _, ev := range log.Events() {
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
			if release.Wait(w) {
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
	if first.End.Text != "it runs; ask me anything" || s.Quiet() {
		t.Fatalf("first turn %q, quiet %v", first.End.Text, s.Quiet())
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
			if release.Wait(w) {
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
