package llm_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// wantCall is an expected tool call; an empty id means "generated".
type wantCall struct{ id, name, args string }

// quirk is one thing a real provider sends, scripted as raw SSE.
type quirk struct {
	name      string
	script    func(w *llmtest.Writer)
	text      string
	reasoning string
	calls     []wantCall
	finish    string
	prompt    int    // expected usage.prompt_tokens; 0 means no usage expected
	err       string // substring of the expected error; "" means success
}

// stream runs Stream against a server answering with script.
func stream(t *testing.T, script func(w *llmtest.Writer), h llm.Handler) (llm.Response, error) {
	t.Helper()
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { script(w) })
	req := openai.ChatCompletionRequest{
		Model:    "test-model",
		Messages: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: "hi"}},
	}
	return llm.Stream(context.Background(), srv.Client(), req, h)
}

// lines returns a script writing each argument as a data chunk then [DONE].
func lines(chunks ...string) func(w *llmtest.Writer) {
	return func(w *llmtest.Writer) {
		for _, c := range chunks {
			w.Chunk(c)
		}
		w.Done()
	}
}

const (
	roleChunk = `{"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`
	stopChunk = `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`
	toolsDone = `{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`
	usageOnly = `{"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":3,"total_tokens":10}}`
)

// text is a content delta chunk.
func text(s string) string {
	return `{"choices":[{"index":0,"delta":{"content":"` + s + `"},"finish_reason":null}]}`
}

// tools is a chunk whose delta carries the given tool_calls JSON array.
func tools(calls string) string {
	return `{"choices":[{"index":0,"delta":{"tool_calls":` + calls + `},"finish_reason":null}]}`
}

func TestStreamQuirks(t *testing.T) {
	for _, q := range append(append(quirks(), contentQuirks()...), recordedQuirks()...) {
		t.Run(q.name, func(t *testing.T) {
			resp, err := stream(t, q.script, llm.Handler{})
			if q.err != "" {
				if err == nil || !strings.Contains(err.Error(), q.err) {
					t.Fatalf("error = %v, want one containing %q", err, q.err)
				}
				if len(resp.ToolCalls) != 0 {
					t.Fatalf("failed stream returned tool calls %+v", resp.ToolCalls)
				}
			} else if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			if resp.Content != q.text {
				t.Errorf("content = %q, want %q", resp.Content, q.text)
			}
			if resp.Reasoning != q.reasoning {
				t.Errorf("reasoning = %q, want %q", resp.Reasoning, q.reasoning)
			}
			if resp.FinishReason != q.finish {
				t.Errorf("finish = %q, want %q", resp.FinishReason, q.finish)
			}
			if resp.HasUsage != (q.prompt > 0) || resp.Usage.PromptTokens != q.prompt {
				t.Errorf("usage = %+v (has %v), want prompt tokens %d", resp.Usage, resp.HasUsage, q.prompt)
			}
			checkCalls(t, resp.ToolCalls, q.calls)
		})
	}
}

// checkCalls compares assembled calls with the expected ones, and checks
// that each is complete enough to go straight into the history.
func checkCalls(t *testing.T, got []openai.ToolCall, want []wantCall) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d tool calls %+v, want %d", len(got), got, len(want))
	}
	seen := map[string]bool{}
	for i, c := range got {
		w := want[i]
		if c.Index != nil || c.Type != openai.ToolTypeFunction {
			t.Errorf("call %d: index %v type %q, want nil and function", i, c.Index, c.Type)
		}
		if w.id != "" && c.ID != w.id || w.id == "" && (!strings.HasPrefix(c.ID, "call_") || len(c.ID) < 10) {
			t.Errorf("call %d: id %q, want %q (empty: generated)", i, c.ID, w.id)
		}
		if seen[c.ID] {
			t.Errorf("call %d: duplicate id %q", i, c.ID)
		}
		seen[c.ID] = true
		if c.Function.Name != w.name || c.Function.Arguments != w.args {
			t.Errorf("call %d: %s(%s), want %s(%s)", i, c.Function.Name, c.Function.Arguments, w.name, w.args)
		}
	}
}

func TestStreamPassesDeltasAndAsksForUsage(t *testing.T) {
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		lines(`{"choices":[{"index":0,"delta":{"reasoning_content":"r1"}}]}`, text("a"), text("b"), stopChunk)(w)
	})
	var got []string
	h := llm.Handler{
		OnText:      func(s string) { got = append(got, "text:"+s) },
		OnReasoning: func(s string) { got = append(got, "reasoning:"+s) },
	}
	req := openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}}
	if _, err := llm.Stream(context.Background(), srv.Client(), req, h); err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if want := "reasoning:r1 text:a text:b"; strings.Join(got, " ") != want {
		t.Errorf("handler saw %q, want %q", strings.Join(got, " "), want)
	}
	raw := string(srv.Requests()[0].Raw)
	for _, want := range []string{`"stream":true`, `"include_usage":true`} {
		if !strings.Contains(raw, want) {
			t.Errorf("request %s lacks %s", raw, want)
		}
	}
}

// OnToolBegin hears each call's name once, as soon as it comes: before
// any of its arguments, and once whatever later deltas repeat it.
func TestStreamTellsEachToolCallAsItBegins(t *testing.T) {
	var got []string
	args := 0
	h := llm.Handler{
		OnToolBegin: func(name string) bool {
			got = append(got, fmt.Sprintf("%s after %d argument deltas", name, args))
			return false
		},
		OnToolDelta: func() { args++ },
	}
	resp, err := stream(t, func(w *llmtest.Writer) {
		w.ToolCalls(llmtest.Call{Name: "task", Args: `{"prompt":"look around the code"}`}, llmtest.Call{Name: "read_file", Args: `{"path":"a.go"}`})
	}, h)
	if err != nil || len(resp.ToolCalls) != 2 {
		t.Fatalf("Stream = %+v, %v", resp, err)
	}
	if want := "task after 0 argument deltas, read_file after 4 argument deltas"; strings.Join(got, ", ") != want {
		t.Fatalf("OnToolBegin heard %q, want %q", strings.Join(got, ", "), want)
	}
}

func TestStreamNilHandlerFuncsAreSkipped(t *testing.T) {
	resp, err := stream(t, lines(`{"choices":[{"index":0,"delta":{"reasoning_content":"r"}}]}`, text("a"), stopChunk), llm.Handler{})
	if err != nil || resp.Content != "a" || resp.Reasoning != "r" {
		t.Fatalf("Stream = %+v, %v", resp, err)
	}
}

// A client not built by NewClient still streams, but cannot tell [DONE]
// from a cut connection, so a reply without finish_reason is an error.
func TestStreamWithPlainClient(t *testing.T) {
	cases := []struct {
		name   string
		script func(w *llmtest.Writer)
		err    string
	}{
		{"standard reply", func(w *llmtest.Writer) { w.Text("hello") }, ""},
		{"no finish_reason", lines(text("ok")), "the reply was cut off"},
		{"go-openai's own in-band error path", lines(`{"error":{"message":"overloaded","code":503}}`), "provider error (503) during the reply: overloaded"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { c.script(w) })
			cfg := openai.DefaultConfig("key")
			cfg.BaseURL = srv.URL
			req := openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}}
			_, err := llm.Stream(context.Background(), openai.NewClientWithConfig(cfg), req, llm.Handler{})
			if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Fatalf("error = %v, want %q", err, c.err)
			}
		})
	}
}
