package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// A busy provider is retried after the policy's pause, and each retry
// is announced; a Retry-After longer than allowed ends the run with the
// reason instead of a long silent wait.
func TestRequestsAreRetriedWithinTheirBounds(t *testing.T) {
	a, evs := newAgent(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 0 {
			w.Error(503, `{"error":{"message":"overloaded","type":"server_error"}}`)
			return
		}
		w.Text("back again")
	}, func(c *agent.Config) {
		c.Requests = agent.RequestPolicy{RetryDelays: []time.Duration{time.Millisecond}}
	})
	if res := a.Run(context.Background(), "x"); res.Status != event.StatusCompleted || res.Text != "back again" {
		t.Fatalf("result %+v", res)
	}
	retried := false
	for _, ev := range evs.all {
		if r, ok := ev.(event.Retrying); ok && r.Attempt == 1 {
			retried = true
		}
	}
	if !retried {
		t.Error("the retry was not announced")
	}

	b, _ := newAgent(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		w.Header().Set("Retry-After", "3600")
		w.Error(429, `{"error":{"message":"slow down","type":"rate_limit"}}`)
	}, func(c *agent.Config) {
		c.Requests = agent.RequestPolicy{RetryDelays: []time.Duration{time.Millisecond}, RetryAfterMax: time.Minute}
	})
	if res := b.Run(context.Background(), "x"); res.Status != event.StatusFailed || !strings.Contains(res.Reason, "longer than retry_after_max_s") {
		t.Errorf("a long Retry-After: %+v", res)
	}
}

// A model the endpoint does not know falls back once to the fallback
// model, and the run says so.
func TestUnknownModelFallsBack(t *testing.T) {
	var models []string
	a, _ := newAgent(t, func(r *llmtest.Request, w *llmtest.Writer) {
		models = append(models, r.Body.Model)
		if r.Body.Model == "test-model" {
			w.Error(404, `{"error":{"message":"The model test-model does not exist","type":"invalid_request_error"}}`)
			return
		}
		w.Text("from the fallback")
	}, func(c *agent.Config) { c.FallbackModel = "small-model" })
	res := a.Run(context.Background(), "x")
	if res.Status != event.StatusCompleted || strings.Join(models, ",") != "test-model,small-model" || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "fell back to small-model") {
		t.Errorf("result %+v, models %v", res, models)
	}
	if a.Model() != "small-model" {
		t.Errorf("the next request goes to %s", a.Model())
	}
}

// A request over the context window is retried once with the older tool
// results elided, and the person is told.
func TestContextOverflowElidesOldResults(t *testing.T) {
	overflowed := false
	a, evs := newAgent(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case r.Index < 6:
			w.ToolCalls(llmtest.Call{Name: "echo", Args: `{"text":"result ` + string(rune('a'+r.Index)) + `"}`})
		case !overflowed:
			overflowed = true
			w.Error(400, `{"error":{"message":"This model's maximum context length is 8192 tokens","type":"invalid_request_error","code":"context_length_exceeded"}}`)
		default:
			if r.HasToolResult("echo: result a") || !r.HasToolResult("echo: result f") {
				t.Error("the retry did not elide the oldest results, or elided the newest")
			}
			w.Text("fits now")
		}
	}, func(c *agent.Config) { c.MaxSteps = 10 })
	if res := a.Run(context.Background(), "x"); res.Status != event.StatusCompleted || res.Text != "fits now" {
		t.Fatalf("result %+v", res)
	}
	told := false
	for _, ev := range evs.all {
		if n, ok := ev.(event.Notice); ok && strings.Contains(n.Text, "elided 2 older tool results") {
			told = true
		}
	}
	if !told {
		t.Error("the person was not told what was elided")
	}
}

// A message the person sends into a running agent reaches the model
// before its next request; a note a review leaves too; once the run is
// over a message is refused.
func TestMessagesReachARunningAgent(t *testing.T) {
	var a *agent.Agent
	a, evs := newAgent(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 0 {
			if err := a.Send("please hurry"); err != nil {
				t.Errorf("Send while running: %v", err)
			}
			a.Caller().Tell("the review applied your change")
			w.ToolCalls(llmtest.Call{Name: "echo", Args: `{"text":"x"}`})
			return
		}
		body := string(r.Raw)
		if !strings.Contains(body, "Message from the person supervising you: please hurry") || !strings.Contains(body, "[baton] the review applied your change") {
			t.Errorf("the second request lacks the message or the note:\n%s", body)
		}
		w.Text("hurrying")
	}, nil)
	if res := a.Run(context.Background(), "x"); res.Status != event.StatusCompleted {
		t.Fatalf("result %+v", res)
	}
	shown := false
	for _, ev := range evs.all {
		if m, ok := ev.(event.AgentMessage); ok && m.Text == "please hurry" {
			shown = true
		}
	}
	if !shown {
		t.Error("the person's message was not shown in the conversation")
	}
	if err := a.Send("too late"); err == nil {
		t.Error("a message after the run was taken")
	}
}

// Summarize asks without tools for a summary of the history and does
// not stream it as an answer; an empty one is an error.
func TestSummarize(t *testing.T) {
	reply := "we fixed the parser"
	a, evs := newAgent(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if len(r.Body.Tools) != 0 || r.Index == 0 && !strings.Contains(r.LastUser(), "Focus above all on: the parser") {
			t.Errorf("the summary request: %d tools, %q", len(r.Body.Tools), r.LastUser())
		}
		w.Text(reply)
	}, nil)
	summary, _, err := a.Summarize(context.Background(), "the parser")
	if err != nil || summary != reply {
		t.Fatalf("summary %q, %v", summary, err)
	}
	for _, ev := range evs.all {
		if _, ok := ev.(event.TextDelta); ok {
			t.Error("the summary streamed as an answer")
		}
	}
	if !a.Empty() {
		t.Error("Summarize left its request in the history")
	}
	reply = "  "
	if _, _, err := a.Summarize(context.Background(), ""); err == nil || !strings.Contains(err.Error(), "empty summary") {
		t.Errorf("an empty summary: %v", err)
	}
}

// History is loaded back, restarted from the system prompt, and reports
// how full the context was.
func TestHistoryLoadAndRestart(t *testing.T) {
	a, _ := newAgent(t, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("hi") }, nil)
	var recorded []openai.ChatCompletionMessage
	b, _ := newAgent(t, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("hi") }, func(c *agent.Config) {
		c.Record = func(m openai.ChatCompletionMessage) { recorded = append(recorded, m) }
	})
	a.Run(context.Background(), "first")
	if a.ContextUsed() == 0 {
		t.Error("the context used was not counted")
	}
	b.Load(a.History())
	if len(b.History()) != len(a.History()) || len(recorded) != 0 {
		t.Errorf("Load: %d messages, %d recorded again", len(b.History()), len(recorded))
	}
	b.Restart(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: "summary so far"})
	if h := b.History(); len(h) != 2 || h[0].Role != openai.ChatMessageRoleSystem || h[1].Content != "summary so far" || len(recorded) != 1 || b.ContextUsed() != 0 {
		t.Errorf("Restart: %+v, recorded %d", h, len(recorded))
	}
	b.EndTurn()
	if c := b.Caller(); c.Model != "test-model" || c.Meta.Agent != event.MainAgent {
		t.Errorf("caller %+v", c)
	}
}

// A batch's calls ready themselves in order elsewhere: a joined stage
// says it is ready and waits for the whole batch.
func TestJoinStageWaitsForTheBatch(t *testing.T) {
	all := make(chan struct{})
	readied := make(chan struct{})
	st := agent.JoinStage(func() { close(readied) }, all)
	done := make(chan struct{})
	go func() { st.Ready(); close(done) }()
	<-readied
	select {
	case <-done:
		t.Fatal("Ready returned before the batch was ready")
	default:
	}
	close(all)
	<-done
	var none *agent.Stage
	none.Ready() // a call with no stage goes on at once
}

// A prompt with pictures goes to a model that takes them as parts, and
// as text to one that does not; long output is cut with a count.
func TestUserMessageAndTruncate(t *testing.T) {
	img := tools.Image{MIMEType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}}
	if m := agent.UserMessage("look [image 1]", []tools.Image{img}, true); len(m.MultiContent) != 2 || m.MultiContent[1].ImageURL == nil {
		t.Errorf("with images: %+v", m)
	}
	if m := agent.UserMessage("look [image 1]", []tools.Image{img}, false); m.Content != "look [image 1]" || m.MultiContent != nil {
		t.Errorf("without: %+v", m)
	}
	if got := agent.Truncate("héllo world", 5); got != "héllo\n… [truncated: 6 more characters]" {
		t.Errorf("Truncate: %q", got)
	}
	if got := agent.Truncate("short", 0); got != "short" {
		t.Errorf("no bound: %q", got)
	}
}

// A resumed history is made one strict providers accept: a result with
// no call dropped, a call with no result answered as stopped, a repeated
// call id renamed with its result; the notes say what changed.
func TestRepairHistory(t *testing.T) {
	call := func(id string) openai.ToolCall {
		return openai.ToolCall{ID: id, Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: "echo", Arguments: "{}"}}
	}
	history := []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: "sys"},
		{Role: openai.ChatMessageRoleTool, ToolCallID: "lost", Content: "orphan"},
		{Role: openai.ChatMessageRoleAssistant, ToolCalls: []openai.ToolCall{call("a"), call("b")}},
		{Role: openai.ChatMessageRoleTool, ToolCallID: "a", Content: "ra"},
		{Role: openai.ChatMessageRoleUser, Content: "next"},
		{Role: openai.ChatMessageRoleAssistant, ToolCalls: []openai.ToolCall{call("a")}},
		{Role: openai.ChatMessageRoleTool, ToolCallID: "a", Content: "ra again"},
	}
	fixed, rep := agent.RepairHistory(history)
	notes := strings.Join(rep.Notes(), "; ")
	for _, want := range []string{"dropped 1 tool result", "answered 1 tool call", "renamed 1 tool call"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
	seen := map[string]bool{}
	for i, m := range fixed {
		if m.Role == openai.ChatMessageRoleTool && (i == 0 || fixed[i-1].Role != openai.ChatMessageRoleAssistant && fixed[i-1].Role != openai.ChatMessageRoleTool) {
			t.Errorf("message %d: a result not after its call", i)
		}
		for _, c := range m.ToolCalls {
			if seen[c.ID] {
				t.Errorf("call id %s repeats", c.ID)
			}
			seen[c.ID] = true
		}
	}
	if _, rep := agent.RepairHistory(fixed); len(rep.Notes()) != 0 {
		t.Errorf("a repaired history was repaired again: %v", rep.Notes())
	}
}
