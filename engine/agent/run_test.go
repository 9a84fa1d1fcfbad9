package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// echo is a tool that returns its text; write is one that changes
// something, so it is authorized first.
type echo struct{ readOnly bool }

func (e echo) Name() string {
	if e.readOnly {
		return "echo"
	}
	return "write"
}
func (echo) Description() string { return "says its text back" }
func (echo) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)
}
func (e echo) ReadOnly() bool               { return e.readOnly }
func (e echo) Title(json.RawMessage) string { return e.Name() }
func (e echo) Run(_ context.Context, args json.RawMessage) (tools.Result, error) {
	var a struct{ Text string }
	if err := json.Unmarshal(args, &a); err != nil {
		return tools.Result{}, err
	}
	if a.Text == "fail" {
		return tools.Result{}, errors.New("the tool failed on purpose")
	}
	return tools.Result{Output: "echo: " + a.Text, Summary: "1 line"}, nil
}

// refuse is an Authorizer that refuses every call, as a person would.
type refuse struct{}

func (refuse) Authorize(context.Context, agent.ToolRequest) (tools.Withhold, error) {
	return nil, &agent.DeniedError{Tool: "write", Reason: "not now"}
}

// allow is an Authorizer that allows every call.
type allow struct{}

func (allow) Authorize(context.Context, agent.ToolRequest) (tools.Withhold, error) { return nil, nil }

// events collects what an agent emits, from any goroutine.
type events struct {
	mu  sync.Mutex
	all []event.Event
}

func (e *events) emit(ev event.Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.all = append(e.all, ev)
}

func (e *events) finished() []event.ToolFinished {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []event.ToolFinished
	for _, ev := range e.all {
		if f, ok := ev.(event.ToolFinished); ok {
			out = append(out, f)
		}
	}
	return out
}

// newAgent is an agent with the echo and write tools against a scripted
// endpoint.
func newAgent(t *testing.T, respond llmtest.Responder, change func(*agent.Config)) (*agent.Agent, *events) {
	t.Helper()
	return newAgentOn(t, llmtest.NewServer(t, respond), change)
}

// newAgentOn is newAgent against a server the test keeps.
func newAgentOn(t *testing.T, srv *llmtest.Server, change func(*agent.Config)) (*agent.Agent, *events) {
	t.Helper()
	evs := &events{}
	cfg := agent.Config{
		Meta:      event.Meta{Agent: event.MainAgent},
		Client:    srv.Client(),
		Model:     func() string { return "test-model" },
		Tools:     tools.NewSet(echo{readOnly: true}, echo{}),
		MaxSteps:  5,
		Authorize: allow{},
		History:   []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleSystem, Content: "you are a test"}},
		Emit:      evs.emit,
	}
	if change != nil {
		change(&cfg)
	}
	return agent.New(cfg), evs
}

// A turn with a tool call runs the tool and sends its result back; the
// model's mistakes (an unknown tool, arguments that are not JSON) and a
// failing tool come back to it as tool errors, and the run completes.
func TestRunSendsToolResultsAndMistakesBack(t *testing.T) {
	a, evs := newAgent(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if err := r.StrictHistory(); err != nil {
			t.Errorf("request %d: %v", r.Index, err)
		}
		switch r.Index {
		case 0:
			w.ToolCalls(
				llmtest.Call{Name: "echo", Args: `{"text":"hi"}`},
				llmtest.Call{Name: "rm_rf", Args: `{}`},
				llmtest.Call{Name: "echo", Args: `{"text":`},
				llmtest.Call{Name: "echo", Args: `{"text":"fail"}`},
			)
		default:
			for _, want := range []string{"echo: hi", "rm_rf", "fail"} {
				if !r.HasToolResult(want) {
					t.Errorf("the model was not told %q", want)
				}
			}
			w.Text("all done")
		}
	}, nil)
	res := a.Run(context.Background(), "go")
	if res.Status != event.StatusCompleted || res.Text != "all done" || res.Stats.ToolCalls != 4 {
		t.Fatalf("result %+v", res)
	}
	fin := evs.finished()
	if len(fin) != 4 || fin[0].IsError || !fin[1].IsError || !fin[2].IsError || !fin[3].IsError {
		t.Errorf("finished %+v", fin)
	}
	if h := a.History(); len(h) < 4 || h[len(h)-1].Content != "all done" || a.Empty() {
		t.Errorf("history %d messages", len(h))
	}
}

// A call the person refuses is marked denied for people and tells the
// model who said no and why.
func TestRunRefusedCall(t *testing.T) {
	a, evs := newAgent(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 0 {
			w.ToolCalls(llmtest.Call{Name: "write", Args: `{"text":"x"}`})
			return
		}
		if !r.HasToolResult("not now") {
			t.Error("the model was not told the person's reason")
		}
		w.Text("ok, I will not")
	}, func(c *agent.Config) { c.Authorize = refuse{} })
	if res := a.Run(context.Background(), "write it"); res.Status != event.StatusCompleted {
		t.Fatalf("result %+v", res)
	}
	if fin := evs.finished(); len(fin) != 1 || !fin[0].Denied || fin[0].DenyReason != "not now" {
		t.Errorf("finished %+v", fin)
	}
}

// A model that keeps calling tools stops at the step limit; a child asks
// once, without tools, for a summary of where it got.
func TestRunStopsAtTheStepLimit(t *testing.T) {
	var summaryAsked bool
	a, _ := newAgent(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if len(r.Body.Tools) == 0 {
			summaryAsked = true
			w.Text("I got halfway")
			return
		}
		w.ToolCalls(llmtest.Call{Name: "echo", Args: `{"text":"again"}`})
	}, func(c *agent.Config) { c.MaxSteps, c.SummarizeAtLimit = 2, true })
	res := a.Run(context.Background(), "loop")
	if res.Status != event.StatusMaxSteps || !summaryAsked || !strings.Contains(res.Text, "I got halfway") {
		t.Errorf("result %+v, summary asked %v", res, summaryAsked)
	}
}

// A provider error fails the run with the provider's reason; a cancelled
// context ends it as cancelled with what it had said.
func TestRunEndsOnErrorsAndCancellation(t *testing.T) {
	a, _ := newAgent(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		w.Error(400, `{"error":{"message":"bad request: the prompt is malformed","type":"invalid_request_error"}}`)
	}, nil)
	if res := a.Run(context.Background(), "x"); res.Status != event.StatusFailed || !strings.Contains(res.Reason, "the prompt is malformed") {
		t.Errorf("a provider error: %+v", res)
	}

	ctx, cancel := context.WithCancelCause(context.Background())
	b, _ := newAgent(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		w.Partial("partial ans")
		cancel(agent.ErrStopped)
		<-w.Context().Done()
	}, nil)
	res := b.Run(ctx, "x")
	if res.Status != event.StatusCancelled || res.Reason != agent.ErrStopped.Error() {
		t.Errorf("a stopped run: %+v", res)
	}
}

// Classify words how a run ended from its context's cause.
func TestClassify(t *testing.T) {
	for _, c := range []struct {
		cause  error
		status event.Status
	}{
		{agent.ErrStopped, event.StatusCancelled}, {agent.ErrSessionEnded, event.StatusInterrupted},
		{context.DeadlineExceeded, event.StatusTimedOut}, {errors.New("other"), event.StatusCancelled},
	} {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(c.cause)
		if got, _ := agent.Classify(ctx, errors.New("x")); got != c.status {
			t.Errorf("cause %v: %s, want %s", c.cause, got, c.status)
		}
	}
	if got, why := agent.Classify(context.Background(), errors.New("boom")); got != event.StatusFailed || why != "boom" {
		t.Errorf("a plain error: %s %q", got, why)
	}
}
