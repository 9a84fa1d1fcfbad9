package llmtest_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/goleak"

	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// conversation is a request with every kind of message the helpers read.
func conversation() openai.ChatCompletionRequest {
	return openai.ChatCompletionRequest{
		Model: "m",
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: "You are Explore."},
			{Role: openai.ChatMessageRoleUser, Content: "first question"},
			{Role: openai.ChatMessageRoleAssistant, ToolCalls: []openai.ToolCall{{ID: "call_0", Type: "function", Function: openai.FunctionCall{Name: "read_file", Arguments: "{}"}}}},
			{Role: openai.ChatMessageRoleTool, ToolCallID: "call_0", Content: "package main"},
			{Role: openai.ChatMessageRoleUser, MultiContent: []openai.ChatMessagePart{{Type: openai.ChatMessagePartTypeText, Text: "second "}, {Type: openai.ChatMessagePartTypeText, Text: "question"}}},
		},
		Tools: []openai.Tool{
			{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: "read_file"}},
			{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: "grep"}},
		},
	}
}

func TestRequestHelpers(t *testing.T) {
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	for range 2 {
		if _, err := llm.Stream(context.Background(), srv.Client(), conversation(), llm.Handler{}); err != nil {
			t.Fatalf("Stream: %v", err)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Index != 0 || reqs[1].Index != 1 {
		t.Fatalf("Requests() = %d requests, want indexes 0 and 1", len(reqs))
	}
	r := reqs[1]
	if got := r.System(); got != "You are Explore." {
		t.Errorf("System() = %q", got)
	}
	if got := r.LastUser(); got != "second question" {
		t.Errorf("LastUser() = %q", got)
	}
	if got := r.ToolNames(); !slices.Equal(got, []string{"read_file", "grep"}) {
		t.Errorf("ToolNames() = %q", got)
	}
	if !r.HasToolResult("package main") || r.HasToolResult("first question") {
		t.Error("HasToolResult must match tool messages only")
	}
	reqs[0] = nil
	if srv.Requests()[0] == nil {
		t.Error("Requests() returned the server's own slice")
	}
}

func TestScriptedReplies(t *testing.T) {
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.HasToolResult("package main") {
			w.Text("héllo wörld ✓")
			return
		}
		w.ToolCalls(llmtest.Call{ID: "call_a", Name: "read_file", Args: `{"path":"main.go"}`}, llmtest.Call{Name: "grep"})
	})
	first := conversation()
	first.Messages = first.Messages[:2]
	resp, err := llm.Stream(context.Background(), srv.Client(), first, llm.Handler{})
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	want := []openai.ToolCall{
		{ID: "call_a", Type: "function", Function: openai.FunctionCall{Name: "read_file", Arguments: `{"path":"main.go"}`}},
		{ID: "call_1", Type: "function", Function: openai.FunctionCall{Name: "grep", Arguments: "{}"}},
	}
	if !slices.Equal(resp.ToolCalls, want) || resp.FinishReason != "tool_calls" {
		t.Errorf("ToolCalls reply = %+v (%s), want %+v", resp.ToolCalls, resp.FinishReason, want)
	}
	resp, err = llm.Stream(context.Background(), srv.Client(), conversation(), llm.Handler{})
	if err != nil || resp.Content != "héllo wörld ✓" || resp.FinishReason != "stop" {
		t.Errorf("Text reply = %+v, %v", resp, err)
	}
	u := resp.Usage
	if !resp.HasUsage || u.PromptTokens != llmtest.PromptTokens || u.CompletionTokens != llmtest.CompletionTokens {
		t.Errorf("usage = %+v, want %d/%d", u, llmtest.PromptTokens, llmtest.CompletionTokens)
	}
}

// Close must release a responder blocked on its context, so a test that
// never cancels its client still ends without leaked goroutines.
func TestCloseReleasesBlockedResponder(t *testing.T) {
	leaks := goleak.IgnoreCurrent()
	arrived := make(chan struct{})
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		close(arrived)
		<-w.Context().Done()
	})
	done := make(chan error)
	go func() { // exits when the closed server ends the request
		_, err := llm.Stream(context.Background(), srv.Client(), conversation(), llm.Handler{})
		done <- err
	}()
	<-arrived
	srv.Close()
	if err := <-done; err == nil {
		t.Error("Stream succeeded against a closed server")
	}
	goleak.VerifyNone(t, leaks)
}

func TestOnlyChatCompletionsIsServed(t *testing.T) {
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	resp, err := http.Get(srv.URL + "/models")
	if err != nil {
		t.Fatalf("GET /models: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || len(srv.Requests()) != 0 {
		t.Errorf("GET /models = %d with %d recorded requests, want 404 and none", resp.StatusCode, len(srv.Requests()))
	}
}
