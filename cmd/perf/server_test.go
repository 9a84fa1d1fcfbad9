package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/llm"
)

// ask streams one request to the endpoint with baton's own client and
// stream reader, the way baton reads the endpoint in every case.
func ask(t *testing.T, srv *server, messages ...openai.ChatCompletionMessage) llm.Response {
	t.Helper()
	client := llm.NewClient(llm.Config{APIKey: "sk-test", BaseURL: srv.url})
	resp, err := llm.Stream(context.Background(), client, openai.ChatCompletionRequest{Model: "perf-model", Messages: messages}, llm.Handler{})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func user(text string) openai.ChatCompletionMessage {
	return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: text}
}

func testServer(t *testing.T) *server {
	t.Helper()
	srv, err := startServer()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.srv.Close() })
	return srv
}

// A paced answer is the script's words, one chunk each, a pace apart:
// baton's reader assembles them whole, with the finish reason and usage
// a provider sends, and the run's clock (first token, the main agent's
// span, answers counted) is kept.
func TestPacedAnswer(t *testing.T) {
	srv := testServer(t)
	srv.use(script{words: 20, pace: 5 * time.Millisecond})
	start := time.Now()
	resp := ask(t, srv, user("hello"))
	took := time.Since(start)
	var want strings.Builder
	for i := range 20 {
		fmt.Fprintf(&want, "word%d ", i)
	}
	if resp.Content != want.String() || resp.FinishReason != "stop" || !resp.HasUsage || resp.Usage.TotalTokens != 1520 {
		t.Fatalf("answer %q (finish %q, usage %+v)", resp.Content, resp.FinishReason, resp.Usage)
	}
	if took < 20*5*time.Millisecond {
		t.Fatalf("20 words paced 5 ms apart came in %v", took)
	}
	if srv.answered() != 1 || srv.firstTokenAt().IsZero() || srv.criticalPath() < 20*5*time.Millisecond {
		t.Fatalf("answered %d, first token %v, path %v", srv.answered(), srv.firstTokenAt(), srv.criticalPath())
	}
	if srv.childLag() != -1 || srv.childStart() != -1 {
		t.Fatalf("a run without children reports children: lag %v, start %v", srv.childLag(), srv.childStart())
	}
	srv.use(script{})
	if srv.answered() != 0 || !srv.firstTokenAt().IsZero() || srv.criticalPath() != 0 {
		t.Fatal("use did not forget the last run")
	}
}

// An endpoint that writes each event line by line (split) says the same.
func TestSplitEventsSayTheSame(t *testing.T) {
	srv := testServer(t)
	srv.use(script{words: 30, split: true})
	if resp := ask(t, srv, user("hello")); !strings.HasPrefix(resp.Content, "word0 word1 ") || !strings.HasSuffix(resp.Content, "word29 ") {
		t.Fatalf("split answer %q", resp.Content)
	}
}

// With children, the main agent's first reply delegates: one task call
// per child, each naming its part, streamed in pieces as providers do.
// A child's request (its prompt names its part) with tool calls to make
// gets its words and then its calls; the fan-out's end and each child's
// start are noted for the case's figures.
func TestDelegationAndChildren(t *testing.T) {
	srv := testServer(t)
	srv.use(script{words: 3, children: 3, childTools: 2})
	resp := ask(t, srv, user("split"))
	if resp.FinishReason != "tool_calls" || len(resp.ToolCalls) != 3 {
		t.Fatalf("fan-out %+v", resp)
	}
	for i, call := range resp.ToolCalls {
		var args struct {
			Prompt string `json:"prompt"`
			Type   string `json:"subagent_type"`
		}
		if err := json.Unmarshal([]byte(call.Function.Arguments), &args); err != nil || call.Function.Name != "task" {
			t.Fatalf("call %d: %s %q: %v", i, call.Function.Name, call.Function.Arguments, err)
		}
		if args.Prompt != fmt.Sprintf("Describe part %d.", i+1) || args.Type != "explore" {
			t.Fatalf("call %d asks %+v", i, args)
		}
	}
	child := ask(t, srv, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleSystem, Content: "You are a sub-agent."}, user("Describe part 2."))
	if child.Content != "word0 word1 word2 " || len(child.ToolCalls) != 2 || child.ToolCalls[0].Function.Name != "read_file" || child.ToolCalls[1].Function.Name != "grep" {
		t.Fatalf("child's first reply %+v", child)
	}
	if !strings.Contains(child.ToolCalls[1].Function.Arguments, `"internal/pkg2"`) {
		t.Fatalf("the child's search is not in its part's package: %s", child.ToolCalls[1].Function.Arguments)
	}
	if srv.childrenStarted() != 1 || srv.childLag() < 0 || srv.childStart() < 0 {
		t.Fatalf("children started %d, lag %v, start %v", srv.childrenStarted(), srv.childLag(), srv.childStart())
	}
	if srv.answered() != 0 {
		t.Fatalf("a fan-out counted as %d answers", srv.answered())
	}
}

// The model list is a gateway's: a few hundred models, the run's among
// them.
func TestModelList(t *testing.T) {
	srv := testServer(t)
	r, err := http.Get(srv.url + "/models")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	body, _ := io.ReadAll(r.Body)
	var list struct {
		Data []struct{ ID string } `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Data) < 300 || list.Data[0].ID != "perf-model" {
		t.Fatalf("%d models, first %+v", len(list.Data), list.Data[:1])
	}
}

// A request that is not a chat request is refused with a reason.
func TestBadRequestIsRefused(t *testing.T) {
	srv := testServer(t)
	r, err := http.Post(srv.url+"/chat/completions", "application/json", strings.NewReader(`{"messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	if r.StatusCode != http.StatusBadRequest {
		t.Fatalf("status %d", r.StatusCode)
	}
}
