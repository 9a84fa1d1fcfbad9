package demo_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/demo"
	"github.com/seed-e4e525a6/baton/engine/llm"
)

// mainRequest is a first request of a main agent offered the task tool.
func mainRequest(prompt string) openai.ChatCompletionRequest {
	return openai.ChatCompletionRequest{
		Model: demo.Model,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: "You are baton."},
			{Role: openai.ChatMessageRoleUser, Content: prompt},
		},
		Tools: []openai.Tool{{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name:        "task",
			Description: "Delegate.\n\nAvailable sub-agent types (subagent_type):\n- explore: find code\n- review: review code\n\nUsage notes:\n- Several task calls in one message run in parallel: send them together.",
		}}},
	}
}

func TestDelegationsStreamInOneMessage(t *testing.T) {
	srv := startDemo(t)
	client := llm.NewClient(llm.Config{BaseURL: srv.URL, APIKey: "demo"})
	deltas := 0
	resp, err := llm.Stream(context.Background(), client, mainRequest("find the auth code"), llm.Handler{
		OnText: func(string) { deltas++ },
	})
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if deltas < 2 || !strings.Contains(resp.Content, `You asked: "find the auth code"`) {
		t.Errorf("text = %q in %d deltas, want it streamed in pieces and quoting the prompt", resp.Content, deltas)
	}
	if resp.FinishReason != "tool_calls" || len(resp.ToolCalls) != 3 {
		t.Fatalf("finish %q with %d tool calls, want tool_calls with 3", resp.FinishReason, len(resp.ToolCalls))
	}
	wantTypes := []string{"explore", "explore", "review"}
	ids := map[string]bool{}
	for i, call := range resp.ToolCalls {
		var args struct {
			Description, Prompt string
			SubagentType        string `json:"subagent_type"`
		}
		if err := json.Unmarshal([]byte(call.Function.Arguments), &args); err != nil {
			t.Fatalf("call %d arguments %q: %v", i, call.Function.Arguments, err)
		}
		if call.Function.Name != "task" || args.SubagentType != wantTypes[i] || args.Description == "" ||
			!strings.Contains(args.Prompt, "find the auth code") {
			t.Errorf("call %d = %s %+v", i, call.Function.Name, args)
		}
		ids[call.ID] = true
	}
	if len(ids) != 3 {
		t.Errorf("call IDs are not distinct: %v", ids)
	}
	u := resp.Usage
	if !resp.HasUsage || u.PromptTokens <= 0 || u.CompletionTokens <= 0 || u.TotalTokens != u.PromptTokens+u.CompletionTokens {
		t.Errorf("usage = %+v (reported %v)", u, resp.HasUsage)
	}
}

func TestWireShapeFollowsIncludeUsage(t *testing.T) {
	srv := startDemo(t)
	for _, include := range []bool{false, true} {
		req := mainRequest("hello")
		req.Stream = true
		if include {
			req.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
		}
		body, _ := json.Marshal(req)
		resp, err := http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader(string(body)))
		if err != nil {
			t.Fatalf("post: %v", err)
		}
		raw, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Errorf("Content-Type = %q", ct)
		}
		lines := strings.Split(strings.TrimSpace(string(raw)), "\n\n")
		if lines[len(lines)-1] != "data: [DONE]" {
			t.Fatalf("last line = %q, want data: [DONE]", lines[len(lines)-1])
		}
		usages, finishes := 0, 0
		for _, line := range lines[:len(lines)-1] {
			var c struct {
				Choices []struct {
					FinishReason *string `json:"finish_reason"`
				} `json:"choices"`
				Usage *struct {
					TotalTokens int `json:"total_tokens"`
				} `json:"usage"`
			}
			payload, ok := strings.CutPrefix(line, "data: ")
			if !ok || json.Unmarshal([]byte(payload), &c) != nil {
				t.Fatalf("line %q is not a data chunk", line)
			}
			if c.Usage != nil {
				usages++
				if len(c.Choices) != 0 || c.Usage.TotalTokens <= 0 {
					t.Errorf("usage chunk %q", line)
				}
			}
			for _, ch := range c.Choices {
				if ch.FinishReason != nil {
					finishes++
				}
			}
		}
		want := 0
		if include {
			want = 1
		}
		if usages != want || finishes != 1 {
			t.Errorf("include_usage %v: %d usage chunks (want %d), %d finish reasons (want 1)", include, usages, want, finishes)
		}
	}
}

func TestBadRequestsGetOpenAIErrors(t *testing.T) {
	srv := startDemo(t)
	base := strings.TrimSuffix(srv.URL, "/v1")
	tests := []struct {
		name, method, path, body string
		status                   int
		want                     string
	}{
		{"wrong method", http.MethodGet, "/v1/chat/completions", "", http.StatusMethodNotAllowed, "only POST"},
		{"wrong path", http.MethodPost, "/v1/models", "{}", http.StatusNotFound, "only POST /v1/chat/completions"},
		{"bad json", http.MethodPost, "/v1/chat/completions", "{", http.StatusBadRequest, "decode request"},
		{"no messages", http.MethodPost, "/v1/chat/completions", `{"model":"m","stream":true,"messages":[]}`, http.StatusBadRequest, "messages is empty"},
		{"not streaming", http.MethodPost, "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, http.StatusBadRequest, "only streams"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, base+tt.path, strings.NewReader(tt.body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("do: %v", err)
			}
			defer resp.Body.Close()
			var body struct{ Error struct{ Message string } }
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatalf("decode error body: %v", err)
			}
			if resp.StatusCode != tt.status || !strings.Contains(body.Error.Message, tt.want) {
				t.Errorf("got %d %q, want %d with %q", resp.StatusCode, body.Error.Message, tt.status, tt.want)
			}
		})
	}
}

// openStream starts a streaming request and returns its body after the
// first chunk arrived; the server then waits its (long) chunk delay.
func openStream(t *testing.T, ctx context.Context, srv *demo.Server) *bufio.Reader {
	t.Helper()
	req := mainRequest("hello")
	req.Stream = true
	body, _ := json.Marshal(req)
	hreq, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/chat/completions", strings.NewReader(string(body)))
	resp, err := http.DefaultClient.Do(hreq)
	if err != nil {
		t.Fatalf("post: %v", err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	r := bufio.NewReader(resp.Body)
	if line, err := r.ReadString('\n'); err != nil || !strings.HasPrefix(line, "data: ") {
		t.Fatalf("first line %q: %v", line, err)
	}
	return r
}

func TestCloseEndsAStreamingReply(t *testing.T) {
	srv, err := demo.StartWith(context.Background(), demo.Options{ChunkDelay: time.Hour})
	if err != nil {
		t.Fatalf("StartWith: %v", err)
	}
	r := openStream(t, context.Background(), srv)
	if err := srv.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	rest, _ := io.ReadAll(r)
	if strings.Contains(string(rest), "[DONE]") {
		t.Errorf("a closed server finished its reply: %q", rest)
	}
	if err := srv.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestServerStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := demo.StartWith(ctx, demo.Options{})
	if err != nil {
		t.Fatalf("StartWith: %v", err)
	}
	cancel()
	if err := srv.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	client := llm.NewClient(llm.Config{BaseURL: srv.URL, APIKey: "demo"})
	if _, err := llm.Stream(context.Background(), client, mainRequest("hello"), llm.Handler{}); err == nil {
		t.Error("a stopped server still answered")
	}
}
