package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

func TestTurnStreamsTextAndEnds(t *testing.T) {
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		w.Text("Hello from the model.")
	}, nil)
	log := runTurn(t, s, "hi", nil)
	if log.End.Status != event.StatusCompleted || log.End.Text != "Hello from the model." {
		t.Fatalf("end = %+v", log.End)
	}
	var streamed strings.Builder
	for _, d := range eventsOf[event.TextDelta](log) {
		streamed.WriteString(d.Text)
	}
	if streamed.String() != "Hello from the model." {
		t.Fatalf("streamed %q", streamed.String())
	}
	if log.End.Usage.TotalTokens == 0 || log.End.Usage.Requests != 1 {
		t.Fatalf("usage not counted: %+v", log.End.Usage)
	}
}

func TestToolLoopSendsResultBack(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 0 {
			w.ToolCalls(llmtest.Call{ID: "c1", Name: "read_file", Args: `{"path":"notes.txt"}`})
			return
		}
		w.Text("The file says hello.")
	}, nil)
	writeFile(t, s.Workspace(), "notes.txt", "hello world\n")
	log := runTurn(t, s, "read notes", nil)
	if log.End.Status != event.StatusCompleted {
		t.Fatalf("status %s", log.End.Status)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	results := toolMessages(reqs[1])
	if len(results) != 1 {
		t.Fatalf("tool messages %v", results)
	}
	contains(t, "tool result", results[0], "hello world")
	started := eventsOf[event.ToolStarted](log)
	if len(started) != 1 || started[0].Title != "read_file notes.txt" {
		t.Fatalf("tool started events %+v", started)
	}
}

func TestModelMistakesBecomeToolErrors(t *testing.T) {
	cases := []struct {
		name string
		call llmtest.Call
		want string
	}{
		{"unknown tool", llmtest.Call{ID: "c1", Name: "delete_everything", Args: `{}`}, "not available"},
		{"malformed json", llmtest.Call{ID: "c1", Name: "read_file", Args: `{"path": "a.txt"`}, "invalid JSON arguments"},
		{"path outside workspace", llmtest.Call{ID: "c1", Name: "read_file", Args: `{"path":"../../etc/passwd"}`}, "outside"},
		{"unknown agent type", llmtest.Call{ID: "c1", Name: "task", Args: `{"description":"x","prompt":"y","subagent_type":"wizard"}`}, "explore"},
		{"task without prompt", llmtest.Call{ID: "c1", Name: "task", Args: `{"description":"x","subagent_type":"explore"}`}, "needs a prompt"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
				if r.Index == 0 {
					w.ToolCalls(tc.call)
					return
				}
				w.Text("ok")
			}, nil)
			log := runTurn(t, s, "go", nil)
			if log.End.Status != event.StatusCompleted {
				t.Fatalf("status %s", log.End.Status)
			}
			results := toolMessages(srv.Requests()[1])
			contains(t, "tool result", results[0], "Error: ")
			contains(t, "tool result", results[0], tc.want)
		})
	}
}

func TestMainAgentStopsAtStepLimit(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		w.ToolCalls(llmtest.Call{Name: "list_files", Args: `{}`})
	}, func(c *Config) { c.Limits.MaxSteps = 3 })
	log := runTurn(t, s, "loop forever", nil)
	if log.End.Status != event.StatusMaxSteps {
		t.Fatalf("status %s", log.End.Status)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Fatalf("%d requests, want 3", n)
	}
}

func TestProviderErrorFailsTurnWithReason(t *testing.T) {
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		w.Error(401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`)
	}, nil)
	log := runTurn(t, s, "hi", nil)
	if log.End.Status != event.StatusFailed {
		t.Fatalf("status %s", log.End.Status)
	}
	errs := eventsOf[event.ErrorOccurred](log)
	if len(errs) != 1 {
		t.Fatalf("errors %+v", errs)
	}
	contains(t, "error", errs[0].Message, "Incorrect API key provided")
}

func TestInterruptKeepsPartialText(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 0 {
			w.Chunk(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": "Half an ans"}}}})
			<-w.Context().Done()
			return
		}
		w.Text("second answer")
	}, nil)
	log := watchTurn(t, s, "first", func(ev event.Event) {
		if _, ok := ev.(event.TextDelta); ok {
			s.Interrupt()
		}
	})
	if log.End.Status != event.StatusInterrupted || log.End.Text != "Half an ans" {
		t.Fatalf("end %+v", log.End)
	}
	runTurn(t, s, "second", nil)
	second := srv.Requests()[1]
	var history strings.Builder
	for _, m := range second.Body.Messages {
		history.WriteString(m.Content + "\n")
	}
	contains(t, "follow-up history", history.String(), "Half an ans")
}

func TestPermissionAnswers(t *testing.T) {
	cases := []struct {
		name      string
		mode      permission.Mode
		allow     []string
		answer    event.Decision
		written   bool
		wantInRes string
	}{
		{"person allows once", permission.Ask, nil, event.Allow, true, "new.txt"},
		{"person denies", permission.Ask, nil, event.Deny, false, "denied"},
		{"headless refuses without --allow", permission.Headless, nil, "", false, "--allow write_file"},
		{"headless with --allow", permission.Headless, []string{"write_file"}, "", true, "new.txt"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
				if r.Index == 0 {
					w.ToolCalls(llmtest.Call{Name: "write_file", Args: `{"path":"new.txt","content":"made\n"}`})
					return
				}
				w.Text("done")
			}, func(c *Config) { c.Mode, c.Allow = tc.mode, tc.allow })
			var asked []*event.ApprovalRequest
			runTurn(t, s, "write it", func(r *event.ApprovalRequest) event.Answer {
				asked = append(asked, r)
				return event.Answer{Decision: tc.answer}
			})
			if tc.mode == permission.Ask && (len(asked) != 1 || asked[0].Tool != "write_file" || !strings.Contains(asked[0].Preview, "+made")) {
				t.Fatalf("approval requests %+v", asked)
			}
			_, err := os.Stat(filepath.Join(s.Workspace(), "new.txt"))
			if (err == nil) != tc.written {
				t.Fatalf("written = %v, want %v", err == nil, tc.written)
			}
			contains(t, "tool result", toolMessages(srv.Requests()[1])[0], tc.wantInRes)
		})
	}
}

func TestPassingProviderErrorsAreRetried(t *testing.T) {
	cases := []struct {
		name     string
		failures int
		status   event.Status
		requests int
	}{
		{"rate limited once", 1, event.StatusCompleted, 2},
		{"server keeps failing", 99, event.StatusFailed, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
				if r.Index < tc.failures {
					w.Error(429, `{"error":{"message":"Rate limit reached for requests","type":"requests"}}`)
					return
				}
				w.Text("finally")
			}, nil)
			log := runTurn(t, s, "hi", nil)
			if log.End.Status != tc.status || len(srv.Requests()) != tc.requests {
				t.Fatalf("status %s after %d requests", log.End.Status, len(srv.Requests()))
			}
			retries := eventsOf[event.Retrying](log)
			if len(retries) == 0 || retries[0].Reason != "rate limited" || retries[0].Attempts != 2 {
				t.Fatalf("no retry announced: %+v", retries)
			}
		})
	}
}

func TestContextOverflowElidesOldToolResults(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		results := toolMessages(r)
		full := 0
		for _, c := range results {
			if strings.Contains(c, "notes") {
				full++
			}
		}
		switch {
		case full > 4:
			w.Error(400, `{"error":{"message":"This model's maximum context length is 8192 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}`)
		case len(results) < 6:
			w.ToolCalls(llmtest.Call{Name: "read_file", Args: `{"path":"notes.txt"}`})
		default:
			w.Text("fits now")
		}
	}, nil)
	writeFile(t, s.Workspace(), "notes.txt", "notes\n")
	log := runTurn(t, s, "read a lot", nil)
	if log.End.Status != event.StatusCompleted || log.End.Text != "fits now" {
		t.Fatalf("end %+v", log.End)
	}
	last := toolMessages(srv.Requests()[len(srv.Requests())-1])
	if !strings.Contains(last[0], "elided") || !strings.Contains(last[len(last)-1], "notes") {
		t.Fatalf("tool results after compaction: %q", last)
	}
}

func TestDeniedCallIsMarkedForPeople(t *testing.T) {
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 0 {
			w.ToolCalls(llmtest.Call{Name: "write_file", Args: `{"path":"x.txt","content":"x"}`})
			return
		}
		w.Text("ok")
	}, func(c *Config) { c.Mode = permission.Ask })
	log := runTurn(t, s, "write", func(*event.ApprovalRequest) event.Answer {
		return event.Answer{Decision: event.Deny, Reason: "not now"}
	})
	finished := eventsOf[event.ToolFinished](log)
	if len(finished) != 1 || !finished[0].Denied || finished[0].DenyReason != "not now" {
		t.Fatalf("finished %+v", finished)
	}
}
