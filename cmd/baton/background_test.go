package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// backgroundOnce scripts a main agent that starts an explore child in the
// background and answers at once; the child answers once that answer is
// written, or with block never. A woken main agent reports the child's
// answer.
func backgroundOnce(block bool) llmtest.Responder {
	answered := make(chan struct{})
	return func(req *llmtest.Request, w *llmtest.Writer) {
		child := !strings.Contains(strings.Join(req.ToolNames(), ","), "task_wait")
		switch {
		case child && block:
			<-w.Context().Done()
		case child:
			select {
			case <-answered:
				w.Text("FOUND-IT in auth.go")
			case <-w.Context().Done():
			}
		case strings.HasPrefix(req.LastUser(), "[#1 done]"):
			w.Text("The explorer says: " + req.LastUser()[strings.Index(req.LastUser(), "FOUND-IT"):][:21])
		case req.HasToolResult("started #1 in the background"):
			w.Text("Started it.")
			close(answered)
		default:
			w.ToolCalls(llmtest.Call{Name: "task", Args: `{"description":"find auth","prompt":"find the auth code","subagent_type":"explore","background":true}`})
		}
	}
}

func TestHeadlessWaitsForBackgroundChildren(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, backgroundOnce(false))
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL}, "", "-p", "find auth", "--allow", "task")
	if r.code != exitOK || r.stdout != "Started it.\n\nThe explorer says: FOUND-IT in auth.go\n" {
		t.Fatalf("exit %d, stdout %q\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"[Explore] find auth - in the background\n", "[#1 done] explore-1 (find auth)\n"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

func TestHeadlessJSONListsBackgroundChildren(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, backgroundOnce(false))
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL}, "", "-p", "find auth", "--allow", "task", "--output-format", "json")
	var res claudeResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != exitOK {
		t.Fatalf("exit %d, %v\n%s", r.code, err, r.stdout)
	}
	if len(res.Background) != 1 || res.Background[0].ID != "explore-1" || res.Background[0].Status != "completed" || !res.Background[0].Delivered {
		t.Fatalf("background %+v", res.Background)
	}
	if want := 4 * (llmtest.PromptTokens + llmtest.CompletionTokens); res.Usage.TotalTokens != want {
		t.Errorf("usage %d tokens, want the child's and both turns' %d\n%s\n%s", res.Usage.TotalTokens, want, r.stdout, r.stderr)
	}
}

func TestHeadlessNoWaitPrintsTheIDs(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, backgroundOnce(true))
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL}, "", "-p", "find auth", "--allow", "task", "--no-wait", "--output-format", "json")
	var res claudeResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != exitOK || res.Result != "Started it." {
		t.Fatalf("exit %d, %v\n%s", r.code, err, r.stdout)
	}
	if len(res.Background) != 1 || res.Background[0].Status != "running" || res.Background[0].Delivered {
		t.Fatalf("background %+v", res.Background)
	}
	if !strings.Contains(r.stderr, "not waiting for background sub-agents: explore-1 (#1)") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}

func TestNoWaitNeedsAPrompt(t *testing.T) {
	t.Parallel()
	r := runIn(t, context.Background(), nil, "", "--no-wait")
	if r.code != exitUsage || !strings.Contains(r.stderr, "--no-wait only applies to headless runs") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
}

// TestHeadlessRunawayBackgroundLoopEnds is the runaway: a model that
// answers every background result with another background task (1,493
// main requests in 90 s, and headless never exited). The run ends once
// the prompt's wake turns or background sub-agents are spent, and says
// that the last results wait.
func TestHeadlessRunawayBackgroundLoopEnds(t *testing.T) {
	t.Parallel()
	var mainRequests, childRequests atomic.Int32
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) {
		if !strings.Contains(strings.Join(req.ToolNames(), ","), "task_wait") {
			childRequests.Add(1)
			w.Text("found more to look at")
			return
		}
		mainRequests.Add(1)
		msgs := req.Body.Messages
		if msgs[len(msgs)-1].Role == "tool" {
			w.Text("waiting for it")
			return
		}
		w.ToolCalls(llmtest.Call{ID: fmt.Sprintf("t%d", req.Index), Name: "task",
			Args: `{"description":"look again","prompt":"look again","subagent_type":"explore","background":true}`})
	})
	home := t.TempDir()
	writeFile(t, filepath.Join(home, ".config", "baton", "config.toml"), "[limits]\nwake_turns_per_prompt = 2\n")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := runIn(t, ctx, []string{"OPENAI_BASE_URL=" + srv.URL, "HOME=" + home}, "", "-p", "look around", "--allow", "task")
	if r.code != exitOK {
		t.Fatalf("exit %d after %d main and %d child requests\nstderr: %s", r.code, mainRequests.Load(), childRequests.Load(), r.stderr)
	}
	// Three turns of at most 11 requests each (10 background calls, then
	// the refusal answered), and one child per background call.
	if m, c := mainRequests.Load(), childRequests.Load(); m > 33 || c > 30 {
		t.Errorf("%d main and %d child requests", m, c)
	}
	if !strings.Contains(r.stderr, "for the next prompt (limits.wake_turns_per_prompt = 2 reached)") &&
		!strings.Contains(r.stderr, "background_per_prompt") {
		t.Errorf("stderr does not say why the results wait:\n%s", r.stderr)
	}
}
