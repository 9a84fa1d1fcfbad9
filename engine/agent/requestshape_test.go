package agent_test

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// screenshot is a tool whose result holds a picture, as an MCP browser's
// does.
type screenshot struct{}

func (screenshot) Name() string                 { return "screenshot" }
func (screenshot) Description() string          { return "takes a picture" }
func (screenshot) Schema() json.RawMessage      { return json.RawMessage(`{"type":"object"}`) }
func (screenshot) ReadOnly() bool               { return true }
func (screenshot) Title(json.RawMessage) string { return "screenshot" }
func (screenshot) Run(context.Context, json.RawMessage) (tools.Result, error) {
	return tools.Result{Output: "the page", Images: []tools.Image{{MIMEType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}}}}, nil
}

// A picture a tool returns reaches a model that takes images after the
// results, in a user message behind a bridge (chat APIs refuse images in
// tool messages); once the person switches to a model that takes none,
// every picture in the history is sent as a note instead. The MCP
// servers' instructions join the system prompt of each request.
func TestPicturesReachOnlyModelsThatTakeThem(t *testing.T) {
	model := "vision-model"
	var recorded []openai.ChatCompletionMessage
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 0 {
			w.ToolCalls(llmtest.Call{ID: "p1", Name: "screenshot", Args: `{}`})
			return
		}
		w.Text("seen")
	})
	a, _ := newAgentOn(t, srv, func(c *agent.Config) {
		c.Model = func() string { return model }
		c.Catalog = llm.NewCatalog(map[string]llm.ModelInfo{"vision-model": {SupportsImages: true}})
		c.Tools = tools.NewSet(screenshot{})
		c.Instructions = func() string { return "\n\nThe browser server: pages load slowly." }
		c.Record = func(m openai.ChatCompletionMessage) { recorded = append(recorded, m) }
	})
	if res := a.Run(context.Background(), "look at the page"); res.Status != event.StatusCompleted {
		t.Fatalf("result %+v", res)
	}
	second := srv.Requests()[1].Body.Messages
	if !strings.HasSuffix(second[0].Content, "The browser server: pages load slowly.") {
		t.Errorf("the system prompt lacks the servers' instructions: %q", second[0].Content)
	}
	n := len(second)
	result, bridge, pictures := second[n-3], second[n-2], second[n-1]
	if result.Role != "tool" || !strings.Contains(result.Content, "the page\n[the images of this result follow") {
		t.Errorf("the tool result: %+v", result)
	}
	if bridge.Role != "assistant" || pictures.Role != "user" || len(pictures.MultiContent) != 2 ||
		pictures.MultiContent[0].Text != "Images returned by screenshot (call p1):" || pictures.MultiContent[1].ImageURL == nil ||
		!strings.HasPrefix(pictures.MultiContent[1].ImageURL.URL, "data:image/png;base64,") {
		t.Errorf("the pictures were sent as %+v then %+v", bridge, pictures)
	}
	if len(recorded) == 0 || len(recorded[len(recorded)-2].MultiContent) != 2 {
		t.Error("the pictures' message was not recorded")
	}

	model = "text-model"
	a.Run(context.Background(), "and now?")
	third := srv.Requests()[2].Body.Messages
	var notes int
	for _, m := range third {
		if len(m.MultiContent) > 0 {
			t.Errorf("a picture reached a model that takes none: %+v", m)
		}
		if strings.Contains(m.Content, "Images returned by screenshot (call p1):\n[image not shown: this model takes no images]") {
			notes++
		}
	}
	if notes != 1 {
		t.Errorf("%d notes in place of the picture, want 1", notes)
	}
}

// The type's sampling settings reach the request (an asked-for zero
// temperature as the smallest positive float, which go-openai would
// otherwise leave out), and the reasoning effort only for a model that
// reasons; its reasoning streams as thoughts, not as the answer.
func TestSamplingAndEffortReachTheRequest(t *testing.T) {
	zero, half := 0.0, 0.5
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		w.Chunk(`{"choices":[{"index":0,"delta":{"reasoning_content":"weighing"}}]}`)
		w.Text("decided")
	})
	model := "thinker"
	a, evs := newAgentOn(t, srv, func(c *agent.Config) {
		c.Model = func() string { return model }
		c.Catalog = llm.NewCatalog(map[string]llm.ModelInfo{"thinker": {CanReason: true}})
		c.Effort = "high"
		c.Temperature, c.TopP = &zero, &half
	})
	res := a.Run(context.Background(), "decide")
	model = "plain"
	a.Run(context.Background(), "again")
	first, second := srv.Requests()[0].Body, srv.Requests()[1].Body
	if first.ReasoningEffort != "high" || second.ReasoningEffort != "" {
		t.Errorf("effort %q then %q; want it only for the model that reasons", first.ReasoningEffort, second.ReasoningEffort)
	}
	if first.Temperature != math.SmallestNonzeroFloat32 || first.TopP != 0.5 {
		t.Errorf("temperature %v, top_p %v", first.Temperature, first.TopP)
	}
	if !strings.Contains(string(srv.Requests()[0].Raw), `"temperature":1e-45`) {
		t.Errorf("a zero temperature was left out of the request: %s", srv.Requests()[0].Raw)
	}
	var thoughts string
	for _, ev := range evs.all {
		if d, ok := ev.(event.ReasoningDelta); ok {
			thoughts += d.Text
		}
	}
	if res.Text != "decided" || thoughts != "weighingweighing" {
		t.Errorf("answer %q, thoughts %q", res.Text, thoughts)
	}
}

// Retries: a connection cut before any answer is sent again; a refusal
// of the request itself is not; a pause the person stops ends the run
// at once; a Retry-After past the bound on a later attempt says how many
// retries came first.
func TestRetriesOnlyWhatCanSucceed(t *testing.T) {
	t.Run("a cut connection", func(t *testing.T) {
		a, evs := newAgent(t, func(r *llmtest.Request, w *llmtest.Writer) {
			if r.Index == 0 {
				w.Headers()
				return // the stream ends with no event
			}
			w.Text("second try")
		}, func(c *agent.Config) { c.Requests = agent.RequestPolicy{RetryDelays: []time.Duration{1}} })
		if res := a.Run(context.Background(), "x"); res.Status != event.StatusCompleted || res.Text != "second try" {
			t.Fatalf("result %+v", res)
		}
		var retried bool
		for _, ev := range evs.all {
			_, is := ev.(event.Retrying)
			retried = retried || is
		}
		if !retried {
			t.Error("the retry was not announced")
		}
	})
	t.Run("a bad request", func(t *testing.T) {
		srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
			w.Error(400, `{"error":{"message":"unknown parameter","type":"invalid_request_error"}}`)
		})
		a, _ := newAgentOn(t, srv, func(c *agent.Config) { c.Requests = agent.RequestPolicy{RetryDelays: []time.Duration{1, 1}} })
		if res := a.Run(context.Background(), "x"); res.Status != event.StatusFailed || len(srv.Requests()) != 1 {
			t.Errorf("result %+v after %d requests; a refused request is not sent again", res, len(srv.Requests()))
		}
	})
	t.Run("stopped while waiting", func(t *testing.T) {
		ctx, cancel := context.WithCancelCause(context.Background())
		srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
			w.Error(503, `{"error":{"message":"overloaded"}}`)
		})
		a, _ := newAgentOn(t, srv, func(c *agent.Config) {
			c.Requests = agent.RequestPolicy{RetryDelays: []time.Duration{time.Hour}}
			c.Emit = func(ev event.Event) {
				if _, ok := ev.(event.Retrying); ok {
					cancel(agent.ErrStopped)
				}
			}
		})
		if res := a.Run(ctx, "x"); res.Status != event.StatusCancelled || len(srv.Requests()) != 1 {
			t.Errorf("result %+v after %d requests", res, len(srv.Requests()))
		}
	})
	t.Run("a long Retry-After after a retry", func(t *testing.T) {
		a, _ := newAgent(t, func(r *llmtest.Request, w *llmtest.Writer) {
			if r.Index == 0 {
				w.Error(503, `{"error":{"message":"overloaded"}}`)
				return
			}
			w.Header().Set("Retry-After", "3600")
			w.Error(429, `{"error":{"message":"slow down"}}`)
		}, func(c *agent.Config) {
			c.Requests = agent.RequestPolicy{RetryDelays: []time.Duration{1, 1}, RetryAfterMax: time.Minute}
		})
		if res := a.Run(context.Background(), "x"); res.Status != event.StatusFailed || !strings.HasSuffix(res.Reason, "(after 1 retries)") {
			t.Errorf("result %+v", res)
		}
	})
}
