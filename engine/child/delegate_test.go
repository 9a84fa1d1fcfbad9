package child_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

func TestChildStartsFreshWithItsTypeTools(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			w.Text("auth lives in auth.go")
		case r.HasToolResult("status:"):
			w.Text("summary")
		default:
			w.ToolCalls(sessiontest.TaskCall("t1", "Explore", "find auth code", "Find the auth code."))
		}
	}, nil)
	sessiontest.RunTurn(t, s, "SECRET-PARENT-CONTEXT please find auth", nil)
	child := sessiontest.ChildByPrompt(srv.Requests(), "Find the auth code.")
	if len(child) != 1 {
		t.Fatalf("child requests: %d", len(child))
	}
	msgs := child[0].Body.Messages
	if len(msgs) != 2 || msgs[0].Role != "system" || msgs[1].Role != "user" {
		t.Fatalf("child's first request has %d messages: %+v", len(msgs), msgs)
	}
	if strings.Contains(child[0].System(), "SECRET-PARENT-CONTEXT") {
		t.Fatal("the parent's conversation leaked into the child")
	}
	want := []string{"read_file", "list_files", "find_files", "grep"}
	got := child[0].ToolNames()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("explore tools = %v, want %v", got, want)
	}
}

func TestChildToolListsMatchTypesAndNeverIncludeTask(t *testing.T) {
	types := map[string][]string{
		"explore":         {"find_files", "grep", "list_files", "read_file"},
		"plan":            {"find_files", "grep", "list_files", "read_file"},
		"review":          {"find_files", "grep", "list_files", "read_file"},
		"test":            {"find_files", "grep", "list_files", "read_file", "run_command"},
		"general-purpose": {"edit_file", "find_files", "grep", "list_files", "read_file", "run_command", "todo_write", "write_file"},
	}
	var calls []llmtest.Call
	for name := range types {
		calls = append(calls, sessiontest.TaskCall("t-"+name, name, "check "+name, "prompt for "+name))
	}
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			w.Text("report")
		case r.Index == 0:
			w.ToolCalls(calls...)
		default:
			w.Text("done")
		}
	}, nil)
	sessiontest.RunTurn(t, s, "check all", nil)
	for name, want := range types {
		reqs := sessiontest.ChildByPrompt(srv.Requests(), "prompt for "+name)
		if len(reqs) != 1 {
			t.Fatalf("%s: %d requests", name, len(reqs))
		}
		got := reqs[0].ToolNames()
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s tools = %v, want %v", name, got, want)
		}
	}
}

func TestChildCallingToolItWasNotGivenIsRefused(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r) && len(sessiontest.ToolMessages(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "w1", Name: "write_file", Args: `{"path":"pwned.txt","content":"x"}`})
		case sessiontest.IsChild(r):
			w.Text("could not write")
		case r.Index == 0:
			w.ToolCalls(sessiontest.TaskCall("t1", "explore", "sneaky write", "Write a file."))
		default:
			w.Text("done")
		}
	}, nil)
	sessiontest.RunTurn(t, s, "go", nil)
	if _, err := os.Stat(filepath.Join(s.Workspace(), "pwned.txt")); err == nil {
		t.Fatal("a read-only child wrote a file")
	}
	reqs := sessiontest.ChildByPrompt(srv.Requests(), "Write a file.")
	last := reqs[len(reqs)-1]
	sessiontest.Contains(t, "refusal", sessiontest.ToolMessages(last)[0], `tool "write_file" is not available`)
}

func TestParallelChildrenOverlapAndResultsReachParent(t *testing.T) {
	var mu sync.Mutex
	arrived := 0
	allIn := make(chan struct{})
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			mu.Lock()
			arrived++
			if arrived == 3 {
				close(allIn)
			}
			mu.Unlock()
			// Each child answers only once all three are in flight, so
			// this test can only pass if they overlap.
			select {
			case <-allIn:
			case <-w.Context().Done():
				return
			}
			w.Text("finding from " + r.LastUser())
		case r.Index == 0:
			w.ToolCalls(sessiontest.TaskCall("a", "explore", "one", "job one"), sessiontest.TaskCall("b", "explore", "two", "job two"), sessiontest.TaskCall("c", "review", "three", "job three"))
		default:
			w.Text("all done")
		}
	}, nil)
	log := sessiontest.RunTurn(t, s, "split it", nil)
	if log.End.Status != event.StatusCompleted {
		t.Fatalf("status %s", log.End.Status)
	}
	final := srv.Requests()[len(srv.Requests())-1]
	results := sessiontest.ToolMessages(final)
	if len(results) != 3 {
		t.Fatalf("parent got %d results", len(results))
	}
	for i, job := range []string{"job one", "job two", "job three"} {
		sessiontest.Contains(t, "result", results[i], "finding from "+job)
		sessiontest.Contains(t, "result", results[i], "status: completed · 0 tools")
	}
	finished := sessiontest.Of[event.AgentFinished](log)
	if len(finished) != 3 {
		t.Fatalf("%d AgentFinished events", len(finished))
	}
	numbered := map[string]event.AgentID{}
	for _, f := range finished {
		numbered[f.Description] = f.Agent
	}
	if numbered["one"] != "explore-1" || numbered["two"] != "explore-2" || numbered["three"] != "review-3" {
		t.Fatalf("children are not numbered in the order requested: %v", numbered)
	}
	for _, f := range finished {
		if f.Parent != event.MainAgent || f.AgentType == "" || f.Description == "" {
			t.Fatalf("child event lacks tagging: %+v", f.Meta)
		}
	}
	if log.End.Usage.Requests != 5 {
		t.Fatalf("usage rolled up %d requests, want 5 (2 parent + 3 children)", log.End.Usage.Requests)
	}
}

func TestChildLimitsEndWithRightStatus(t *testing.T) {
	t.Parallel() // waits out a real bound; overlaps the others that do
	cases := []struct {
		name   string
		args   string
		status event.Status
	}{
		{"step limit", `{"description":"loop","prompt":"loop","subagent_type":"explore"}`, event.StatusMaxSteps},
		{"timeout", `{"description":"slow","prompt":"slow","subagent_type":"explore","timeout_s":1}`, event.StatusTimedOut},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var summaryAsked bool
			s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
				switch {
				case sessiontest.IsChild(r) && r.LastUser() == "slow":
					w.Chunk(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": "partial finding"}}}})
					<-w.Context().Done()
				case sessiontest.IsChild(r) && len(r.Body.Tools) == 0:
					summaryAsked = true
					w.Text("summary: found nothing yet")
				case sessiontest.IsChild(r):
					w.ToolCalls(llmtest.Call{Name: "list_files", Args: `{}`})
				case r.Index == 0:
					w.ToolCalls(llmtest.Call{ID: "t1", Name: "task", Args: tc.args})
				default:
					w.Text("ok")
				}
			}, func(c *engine.Config) { c.Limits.ChildStepsReadOnly = 2 })
			log := sessiontest.RunTurn(t, s, "go", nil)
			finished := sessiontest.Of[event.AgentFinished](log)
			if len(finished) != 1 || finished[0].Status != tc.status {
				t.Fatalf("finished %+v", finished)
			}
			result := sessiontest.ToolMessages(srv.Requests()[len(srv.Requests())-1])[0]
			sessiontest.Contains(t, "result", result, "status: "+string(tc.status))
			// At either limit the child reports in one last step
			// without tools, and its report is the result.
			if !summaryAsked {
				t.Fatal("the child was not asked to report at its limit")
			}
			sessiontest.Contains(t, "result", result, "summary: found nothing yet")
		})
	}
}
