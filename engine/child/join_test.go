package child_test

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

func TestTaskWaitTimesOutThenJoins(t *testing.T) {
	t.Parallel() // waits out a real bound; overlaps the others that do
	release := make(sessiontest.Gate)
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			if release.Wait(w) {
				w.Text("FOUND-IT")
			}
		case r.HasToolResult("FOUND-IT"):
			w.Text("joined")
		case r.HasToolResult("still running after the wait"):
			close(release)
			w.ToolCalls(llmtest.Call{ID: "w2", Name: child.TaskWaitToolName, Args: `{"ids":["explore-1"],"timeout_s":600}`})
		case r.HasToolResult("started #1"):
			w.ToolCalls(llmtest.Call{ID: "w1", Name: child.TaskWaitToolName, Args: `{"ids":["#1"],"timeout_s":1}`})
		default:
			w.ToolCalls(sessiontest.BackgroundCall("t1", "find auth code", "Find the auth code."))
		}
	}, nil)
	log := sessiontest.RunTurn(t, s, "start and join", nil)
	if log.End.Text != "joined" {
		t.Fatalf("turn ended %q", log.End.Text)
	}
	delivered := sessiontest.Of[event.ResultDelivered](log)
	if len(delivered) != 1 || delivered[0].Via != "task_wait" || delivered[0].Child != "explore-1" {
		t.Fatalf("deliveries %+v", delivered)
	}
	for _, r := range srv.Requests() {
		if sessiontest.HasUser(r, "[#1 done]") {
			t.Fatal("a result task_wait returned was injected again")
		}
	}
	if !s.Quiet() {
		t.Fatal("not quiet after the join")
	}
}

func TestTaskWaitRefusesBadArguments(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case r.Index == 0:
			w.ToolCalls(
				llmtest.Call{ID: "w1", Name: child.TaskWaitToolName, Args: `{"timeout_s":100000}`},
				llmtest.Call{ID: "w2", Name: child.TaskWaitToolName, Args: `{"ids":["nobody-9"]}`},
				llmtest.Call{ID: "w3", Name: child.TaskWaitToolName, Args: `{}`},
				llmtest.Call{ID: "w4", Name: child.TaskWaitToolName, Args: `{"ids":"explore-1"}`},
			)
		default:
			w.Text("ok")
		}
	}, nil)
	sessiontest.RunTurn(t, s, "wait for nothing", nil)
	got := sessiontest.ToolMessages(srv.Requests()[1])
	if !strings.Contains(got[0], "timeout_s must be between 1 and 600") || !strings.Contains(got[1], `no sub-agent "nobody-9"`) ||
		!strings.Contains(got[2], "no sub-agents to report") || !strings.Contains(got[3], "invalid arguments for task_wait") {
		t.Fatalf("results %q", got)
	}
}

func TestTaskStatusReportsProgressOfARunningChild(t *testing.T) {
	release, working := make(sessiontest.Gate), make(sessiontest.Gate)
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r) && len(r.Body.Messages) == 2:
			w.Chunk(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"role": "assistant", "content": "LOOKING at the handlers"}}}})
			w.ToolCalls(llmtest.Call{ID: "c1", Name: "list_files", Args: `{}`})
		case sessiontest.IsChild(r):
			close(working)
			if release.Wait(w) {
				w.Text("FOUND-IT")
			}
		case sessiontest.HasUser(r, "[#1 done]"):
			w.Text("done")
		case r.HasToolResult("running · 1 tool"):
			close(release)
			w.Text("checked")
		case r.HasToolResult("started #1"):
			if working.Wait(w) {
				w.ToolCalls(llmtest.Call{ID: "s1", Name: child.TaskStatusToolName, Args: `{"ids":["explore-1"]}`})
			}
		case r.Index == 0:
			w.ToolCalls(sessiontest.BackgroundCall("t1", "find auth code", "Find the auth code."))
		default:
			w.Text("done")
		}
	}, nil)
	log := sessiontest.RunTurn(t, s, "start and check", nil)
	if log.End.Text != "checked" {
		t.Fatalf("turn ended %q; requests %d", log.End.Text, len(srv.Requests()))
	}
	var status string
	for _, r := range srv.Requests() {
		if msgs := sessiontest.ToolMessages(r); len(msgs) == 2 && r.HasToolResult("running") {
			status = msgs[1]
		}
	}
	for _, want := range []string{"#1 explore-1 [Explore] find auth code: running · 1 tool", "background", "latest text: LOOKING at the handlers"} {
		sessiontest.Contains(t, "task_status", status, want)
	}
}

// Numbers count the session: the second turn's child is #2, so
// task_status "#1" and "#2" name the children of both turns, each by the
// number its id carries.
func TestTaskStatusNumbersCountTheSession(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			w.Text("found")
		case len(sessiontest.ToolMessages(r)) == 3:
			w.Text("reported")
		case len(sessiontest.ToolMessages(r)) == 0:
			w.ToolCalls(sessiontest.TaskCall("t1", "explore", "look", "Look."))
		case !sessiontest.HasUser(r, "second"):
			w.Text("first done")
		case len(sessiontest.ToolMessages(r)) == 1:
			w.ToolCalls(sessiontest.TaskCall("t2", "explore", "look again", "Look again."))
		default:
			w.ToolCalls(llmtest.Call{ID: "s1", Name: child.TaskStatusToolName, Args: `{"ids":["#1","#2"]}`})
		}
	}, nil)
	sessiontest.RunTurn(t, s, "first", nil)
	if log := sessiontest.RunTurn(t, s, "second", nil); log.End.Text != "reported" {
		t.Fatalf("second turn ended %q", log.End.Text)
	}
	reqs := srv.Requests()
	status := sessiontest.ToolMessages(reqs[len(reqs)-1])[2]
	sessiontest.Contains(t, "task_status", status, "#1 explore-1 [Explore] look")
	sessiontest.Contains(t, "task_status", status, "#2 explore-2 [Explore] look again")
}
