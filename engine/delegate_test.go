package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// taskCall builds a task tool call.
func taskCall(id, typ, desc, prompt string) llmtest.Call {
	return llmtest.Call{ID: id, Name: "task", Args: fmt.Sprintf(`{"description":%q,"prompt":%q,"subagent_type":%q}`, desc, prompt, typ)}
}

// childByPrompt finds the child requests whose task prompt is prompt.
func childByPrompt(reqs []*llmtest.Request, prompt string) []*llmtest.Request {
	var out []*llmtest.Request
	for _, r := range reqs {
		if isChild(r) && len(r.Body.Messages) > 1 && r.Body.Messages[1].Content == prompt {
			out = append(out, r)
		}
	}
	return out
}

func TestChildStartsFreshWithItsTypeTools(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			w.Text("auth lives in auth.go")
		case r.HasToolResult("status:"):
			w.Text("summary")
		default:
			w.ToolCalls(taskCall("t1", "Explore", "find auth code", "Find the auth code."))
		}
	}, nil)
	runTurn(t, s, "SECRET-PARENT-CONTEXT please find auth", nil)
	child := childByPrompt(srv.Requests(), "Find the auth code.")
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
		calls = append(calls, taskCall("t-"+name, name, "check "+name, "prompt for "+name))
	}
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			w.Text("report")
		case r.Index == 0:
			w.ToolCalls(calls...)
		default:
			w.Text("done")
		}
	}, nil)
	runTurn(t, s, "check all", nil)
	for name, want := range types {
		reqs := childByPrompt(srv.Requests(), "prompt for "+name)
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
		case isChild(r) && len(toolMessages(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "w1", Name: "write_file", Args: `{"path":"pwned.txt","content":"x"}`})
		case isChild(r):
			w.Text("could not write")
		case r.Index == 0:
			w.ToolCalls(taskCall("t1", "explore", "sneaky write", "Write a file."))
		default:
			w.Text("done")
		}
	}, nil)
	runTurn(t, s, "go", nil)
	if _, err := os.Stat(filepath.Join(s.Workspace(), "pwned.txt")); err == nil {
		t.Fatal("a read-only child wrote a file")
	}
	reqs := childByPrompt(srv.Requests(), "Write a file.")
	last := reqs[len(reqs)-1]
	contains(t, "refusal", toolMessages(last)[0], `tool "write_file" is not available`)
}

func TestParallelChildrenOverlapAndResultsReachParent(t *testing.T) {
	var mu sync.Mutex
	arrived := 0
	allIn := make(chan struct{})
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
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
			w.ToolCalls(taskCall("a", "explore", "one", "job one"), taskCall("b", "explore", "two", "job two"), taskCall("c", "review", "three", "job three"))
		default:
			w.Text("all done")
		}
	}, nil)
	log := runTurn(t, s, "split it", nil)
	if log.end.Status != StatusCompleted {
		t.Fatalf("status %s", log.end.Status)
	}
	final := srv.Requests()[len(srv.Requests())-1]
	results := toolMessages(final)
	if len(results) != 3 {
		t.Fatalf("parent got %d results", len(results))
	}
	for i, job := range []string{"job one", "job two", "job three"} {
		contains(t, "result", results[i], "finding from "+job)
		contains(t, "result", results[i], "status: completed · 0 tools")
	}
	finished := eventsOf[AgentFinished](log)
	if len(finished) != 3 {
		t.Fatalf("%d AgentFinished events", len(finished))
	}
	numbered := map[string]AgentID{}
	for _, f := range finished {
		numbered[f.Description] = f.Agent
	}
	if numbered["one"] != "explore-1" || numbered["two"] != "explore-2" || numbered["three"] != "review-3" {
		t.Fatalf("children are not numbered in the order requested: %v", numbered)
	}
	for _, f := range finished {
		if f.Parent != MainAgent || f.AgentType == "" || f.Description == "" {
			t.Fatalf("child event lacks tagging: %+v", f.Meta)
		}
	}
	if log.end.Usage.Requests != 5 {
		t.Fatalf("usage rolled up %d requests, want 5 (2 parent + 3 children)", log.end.Usage.Requests)
	}
}

func TestChildLimitsEndWithRightStatus(t *testing.T) {
	cases := []struct {
		name   string
		args   string
		status Status
	}{
		{"step limit", `{"description":"loop","prompt":"loop","subagent_type":"explore"}`, StatusMaxSteps},
		{"timeout", `{"description":"slow","prompt":"slow","subagent_type":"explore","timeout_s":1}`, StatusTimedOut},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var summaryAsked bool
			s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
				switch {
				case isChild(r) && r.LastUser() == "slow":
					w.Chunk(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": "partial finding"}}}})
					<-w.Context().Done()
				case isChild(r) && len(r.Body.Tools) == 0:
					summaryAsked = true
					w.Text("summary: found nothing yet")
				case isChild(r):
					w.ToolCalls(llmtest.Call{Name: "list_files", Args: `{}`})
				case r.Index == 0:
					w.ToolCalls(llmtest.Call{ID: "t1", Name: "task", Args: tc.args})
				default:
					w.Text("ok")
				}
			}, func(c *Config) { c.Limits.ChildStepsReadOnly = 2 })
			log := runTurn(t, s, "go", nil)
			finished := eventsOf[AgentFinished](log)
			if len(finished) != 1 || finished[0].Status != tc.status {
				t.Fatalf("finished %+v", finished)
			}
			result := toolMessages(srv.Requests()[len(srv.Requests())-1])[0]
			contains(t, "result", result, "status: "+string(tc.status))
			if tc.status == StatusMaxSteps && !summaryAsked {
				t.Fatal("the child was not asked to summarise at its step limit")
			}
			if tc.status == StatusTimedOut {
				contains(t, "result", result, "partial finding")
			}
		})
	}
}

func TestStoppedChildLeavesSiblingsRunning(t *testing.T) {
	release := make(chan struct{})
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
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
			w.ToolCalls(taskCall("a", "explore", "victim", "victim job"), taskCall("b", "explore", "survivor", "survivor job"))
		default:
			w.Text("done")
		}
	}, nil)
	streaming := map[string]AgentID{}
	log := watchTurn(t, s, "go", func(ev Event) {
		d, ok := ev.(TextDelta)
		if !ok || d.Agent == MainAgent || streaming[d.Description] != "" {
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
	statuses := map[string]Status{}
	for _, f := range eventsOf[AgentFinished](log) {
		statuses[f.Description] = f.Status
	}
	if statuses["victim"] != StatusCancelled || statuses["survivor"] != StatusCompleted {
		t.Fatalf("statuses %v", statuses)
	}
	results := toolMessages(srv.Requests()[len(srv.Requests())-1])
	contains(t, "stopped child's result", results[0], "working on victim job")
	contains(t, "stopped child's result", results[0], "status: cancelled")
	contains(t, "survivor's result", results[1], "status: completed")
}

func TestDeniedDelegationReachesParent(t *testing.T) {
	cases := []struct {
		name   string
		mode   PermissionMode
		answer Answer
		want   string
	}{
		{"person denies with reason", ModeAsk, Answer{Decision: Deny, Reason: "too expensive"}, "too expensive"},
		{"headless without --allow task", ModeHeadless, Answer{}, "--allow task"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
				switch {
				case isChild(r):
					t.Error("a denied child must not run")
				case r.Index == 0:
					w.ToolCalls(taskCall("t1", "explore", "look around", "Look around."))
				default:
					w.Text("fine")
				}
			}, func(c *Config) { c.Mode = tc.mode })
			runTurn(t, s, "go", func(*ApprovalRequest) Answer { return tc.answer })
			result := toolMessages(srv.Requests()[1])[0]
			contains(t, "result", result, "status: denied")
			contains(t, "result", result, tc.want)
		})
	}
}

func TestEditedPromptReplacesTaskPrompt(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			w.Text("ok")
		case r.Index == 0:
			w.ToolCalls(taskCall("t1", "explore", "look", "Original prompt."))
		default:
			w.Text("fine")
		}
	}, func(c *Config) { c.Mode = ModeAsk })
	runTurn(t, s, "go", func(r *ApprovalRequest) Answer {
		if r.Kind != ApproveDelegation || r.Delegation.AgentType != "Explore" || r.Delegation.EstimatedTokens == 0 {
			t.Errorf("approval request %+v", r)
		}
		return Answer{Decision: Allow, EditedPrompt: "Edited prompt."}
	})
	if len(childByPrompt(srv.Requests(), "Edited prompt.")) != 1 {
		t.Fatal("the child did not receive the edited prompt")
	}
}

func TestInterruptStopsChildren(t *testing.T) {
	childIn := make(chan struct{})
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			close(childIn)
			<-w.Context().Done()
		default:
			w.ToolCalls(taskCall("t1", "explore", "forever", "Run forever."))
		}
	}, nil)
	go func() {
		<-childIn
		s.Interrupt()
	}()
	log := runTurn(t, s, "go", nil)
	if log.end.Status != StatusInterrupted {
		t.Fatalf("turn status %s", log.end.Status)
	}
	finished := eventsOf[AgentFinished](log)
	if len(finished) != 1 || finished[0].Status != StatusCancelled {
		t.Fatalf("child %+v", finished)
	}
}

func TestSendToAgentDeliversBeforeNextRequest(t *testing.T) {
	firstIn := make(chan struct{})
	proceed := make(chan struct{})
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r) && len(toolMessages(r)) == 0:
			close(firstIn)
			<-proceed
			w.ToolCalls(llmtest.Call{Name: "list_files", Args: `{}`})
		case isChild(r):
			w.Text("noted")
		case r.Index == 0:
			w.ToolCalls(taskCall("t1", "explore", "steerable", "Be steered."))
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
	log := runTurn(t, s, "go", nil)
	reqs := childByPrompt(srv.Requests(), "Be steered.")
	last := reqs[len(reqs)-1].Body.Messages
	contains(t, "steered request", last[len(last)-1].Content, "also check vendor/")
	if len(eventsOf[AgentMessage](log)) != 1 {
		t.Fatal("no AgentMessage event")
	}
}

func TestQueuedChildrenRunInTheOrderRequested(t *testing.T) {
	var mu sync.Mutex
	var order []string
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			mu.Lock()
			order = append(order, r.LastUser())
			mu.Unlock()
			w.Text("ok")
		case len(toolMessages(r)) == 0:
			w.ToolCalls(taskCall("a", "explore", "first", "job 1"), taskCall("b", "review", "second", "job 2"),
				taskCall("c", "general-purpose", "third", "job 3"))
		default:
			w.Text("done")
		}
	}, func(c *Config) { c.Limits.MaxConcurrent = 1 })
	log := runTurn(t, s, "go", nil)
	if strings.Join(order, ",") != "job 1,job 2,job 3" {
		t.Fatalf("children ran in the order %v", order)
	}
	if len(eventsOf[AgentQueued](log)) != 2 {
		t.Fatalf("%d queued events, want 2", len(eventsOf[AgentQueued](log)))
	}
}

func TestSlotQueueHandsSlotsOnInOrder(t *testing.T) {
	q := newSlotQueue(1)
	first := q.enqueue()
	second, third := q.enqueue(), q.enqueue()
	if second.position() != 1 || third.position() != 2 {
		t.Fatalf("positions %d, %d", second.position(), third.position())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := second.wait(ctx); err == nil {
		t.Fatal("a cancelled wait succeeded")
	}
	first.release()
	if err := third.wait(context.Background()); err != nil {
		t.Fatalf("the slot did not pass over the one who left: %v", err)
	}
	third.release()
	third.release()
	if q.free != 1 || len(q.waiters) != 0 {
		t.Fatalf("queue after all left: free %d, waiting %d", q.free, len(q.waiters))
	}
}
