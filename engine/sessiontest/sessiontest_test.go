package sessiontest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/goleak"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/mcp"
	"github.com/seed-e4e525a6/baton/engine/mcp/mcptest"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// fakeSession plays back a turn's events on Submit.
type fakeSession struct {
	events    chan event.Event
	turn      []event.Event
	submitted []string
}

func (f *fakeSession) Submit(prompt string) error {
	f.submitted = append(f.submitted, prompt)
	for _, ev := range f.turn {
		f.events <- ev
	}
	return nil
}

func (f *fakeSession) Events() <-chan event.Event { return f.events }

// A turn is read up to the main agent's end, not a child's; its cards
// are answered (allowed unless the test says otherwise), and the events
// are kept in order, by type as well.
func TestRunTurnReadsToTheMainAgentsEndAndAnswersCards(t *testing.T) {
	allowed, denied := event.NewApprovalRequest("a", event.ApproveTool), event.NewApprovalRequest("b", event.ApproveTool)
	s := &fakeSession{events: make(chan event.Event, 8), turn: []event.Event{
		event.ApprovalRequested{Request: allowed},
		event.TurnEnded{Meta: event.Meta{Agent: "explore-1"}, Text: "child"},
		event.TurnEnded{Meta: event.Meta{Agent: event.MainAgent}, Text: "main"},
		event.Notice{Text: "after the turn"},
	}}
	turn := sessiontest.RunTurn(t, s, "go", nil)
	if turn.End.Text != "main" || len(turn.Events()) != 3 || len(sessiontest.Of[event.TurnEnded](turn)) != 2 {
		t.Fatalf("turn ended %+v with %d events", turn.End, len(turn.Events()))
	}
	if a := allowed.Wait(context.Background()); a.Decision != event.Allow {
		t.Fatalf("the card was answered %+v", a)
	}
	if ev := <-s.events; ev.Kind() != "notice" {
		t.Fatalf("the event after the turn was read: %s is next", ev.Kind())
	}
	s.turn = []event.Event{event.ApprovalRequested{Request: denied}, event.TurnEnded{Meta: event.Meta{Agent: event.MainAgent}}}
	sessiontest.RunTurn(t, s, "again", func(*event.ApprovalRequest) event.Answer { return event.Answer{Decision: event.Deny} })
	if a := denied.Wait(context.Background()); a.Decision != event.Deny {
		t.Fatalf("the card was answered %+v, want the test's answer", a)
	}
	if !slices.Equal(s.submitted, []string{"go", "again"}) {
		t.Fatalf("submitted %q", s.submitted)
	}
}

// The request helpers tell a child's request from the main agent's and
// read its messages, and the scripts answer each as they say.
func TestScriptsAndRequestHelpers(t *testing.T) {
	srv := llmtest.NewServer(t, sessiontest.DelegatingScript(false))
	task := openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: child.TaskToolName}}
	main := openai.ChatCompletionRequest{Model: "m", Tools: []openai.Tool{task},
		Messages: []openai.ChatCompletionMessage{{Role: "system", Content: "main"}, {Role: "user", Content: "find auth"}}}
	resp, err := llm.Stream(context.Background(), srv.Client(), main, llm.Handler{})
	if err != nil || len(resp.ToolCalls) != 1 || resp.ToolCalls[0].Function.Name != child.TaskToolName {
		t.Fatalf("the main agent asked to find auth answered %+v, %v", resp, err)
	}
	var args struct {
		Description, Prompt string
		SubagentType        string `json:"subagent_type"`
	}
	if err := json.Unmarshal([]byte(resp.ToolCalls[0].Function.Arguments), &args); err != nil ||
		args.Prompt != "Find the auth code." || args.SubagentType != "explore" || args.Description != "find auth code" {
		t.Fatalf("task call %s: %v", resp.ToolCalls[0].Function.Arguments, err)
	}
	kid := openai.ChatCompletionRequest{Model: "m",
		Messages: []openai.ChatCompletionMessage{{Role: "system", Content: "child"}, {Role: "user", Content: "Find the auth code."},
			{Role: "tool", Content: "result one"}, {Role: "user", Content: "more please"}}}
	if resp, err = llm.Stream(context.Background(), srv.Client(), kid, llm.Handler{}); err != nil || resp.Content != "the auth code is in auth.go" {
		t.Fatalf("the child answered %+v, %v", resp, err)
	}
	reqs := srv.Requests()
	if sessiontest.IsChild(reqs[0]) || !sessiontest.IsChild(reqs[1]) {
		t.Fatal("IsChild mixes up the main agent and the child")
	}
	if got := sessiontest.ChildByPrompt(reqs, "Find the auth code."); len(got) != 1 || got[0] != reqs[1] {
		t.Fatalf("ChildByPrompt found %d requests", len(got))
	}
	if got := sessiontest.ToolMessages(reqs[1]); !slices.Equal(got, []string{"result one"}) {
		t.Fatalf("ToolMessages = %q", got)
	}
	if !sessiontest.LastIsUser(reqs[1], "more please") || sessiontest.LastIsUser(reqs[1], "Find the auth code.") {
		t.Fatal("LastIsUser must read the last message only")
	}
	if !sessiontest.HasUser(reqs[1], "auth code") || sessiontest.HasUser(reqs[1], "result one") {
		t.Fatal("HasUser must read user messages only")
	}
	bg := sessiontest.BackgroundCall("b1", "look", "Look.")
	if !strings.Contains(bg.Args, `"background":true`) || bg.Name != child.TaskToolName {
		t.Fatalf("BackgroundCall = %+v", bg)
	}

	once := llmtest.NewServer(t, sessiontest.DelegateOnce(`{"prompt":"p"}`, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("child says") }))
	if resp, err = llm.Stream(context.Background(), once.Client(), main, llm.Handler{}); err != nil || len(resp.ToolCalls) != 1 || resp.ToolCalls[0].Function.Arguments != `{"prompt":"p"}` {
		t.Fatalf("DelegateOnce's first answer %+v, %v", resp, err)
	}
	main.Messages = append(main.Messages, openai.ChatCompletionMessage{Role: "tool", Content: "done"})
	if resp, err = llm.Stream(context.Background(), once.Client(), main, llm.Handler{}); err != nil || resp.Content != "summary" {
		t.Fatalf("DelegateOnce after the result %+v, %v", resp, err)
	}
	if resp, err = llm.Stream(context.Background(), once.Client(), kid, llm.Handler{}); err != nil || resp.Content != "child says" {
		t.Fatalf("DelegateOnce's child %+v, %v", resp, err)
	}
}

// A gate holds a responder until it opens, or lets it go when the
// request ends.
func TestGate(t *testing.T) {
	gate := make(sessiontest.Gate)
	opened := make(chan bool, 1)
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		ok := gate.Wait(w)
		opened <- ok
		if ok {
			w.Text("through")
		}
	})
	close(gate)
	req := openai.ChatCompletionRequest{Model: "m", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}}
	if resp, err := llm.Stream(context.Background(), srv.Client(), req, llm.Handler{}); err != nil || resp.Content != "through" || !<-opened {
		t.Fatalf("through an open gate: %+v, %v", resp, err)
	}
	shut := make(sessiontest.Gate)
	held := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { opened <- shut.Wait(w) })
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := llm.Stream(ctx, held.Client(), req, llm.Handler{}); err == nil {
		t.Fatal("a request held at a shut gate ended well")
	}
	if <-opened {
		t.Fatal("a shut gate let the responder through")
	}
}

// The workspace helpers make files, a committed repository and a
// transcript folder; Contains passes on a match.
func TestWorkspaces(t *testing.T) {
	dir := t.TempDir()
	sessiontest.WriteFile(t, dir, "a/b.txt", "text")
	sessiontest.GitRepo(t, dir)
	out, err := exec.Command("git", "-C", dir, "show", "main:a/b.txt").CombinedOutput()
	if err != nil || string(out) != "text" {
		t.Fatalf("the repository holds %q (%v)", out, err)
	}
	store, workspace, tdir := sessiontest.NewRecorded(t, nil)
	if again, err := store.Open(workspace, tdir.ID()); err != nil || again.Path() != tdir.Path() {
		t.Fatalf("the recorded folder is not the workspace's: %v", err)
	}
	if info, err := os.Stat(tdir.Path()); err != nil || !info.IsDir() {
		t.Fatalf("the recorded folder: %v", err)
	}
	sessiontest.Contains(t, "text", "haystack", "st")
}

// StartMCP returns once the servers are connected and their tools known.
func TestStartMCP(t *testing.T) {
	m := sessiontest.StartMCP(t, mcp.Options{}, mcp.Server{Name: "srv", URL: mcptest.HTTP(t, nil), Source: "test"})
	var names []string
	for _, tool := range m.Tools() {
		names = append(names, tool.Name())
	}
	if !slices.Contains(names, "mcp__srv__echo") {
		t.Fatalf("tools of a started server: %v", names)
	}
}

// failing is a testing.TB whose Fatal ends only the goroutine it runs
// on, noting why, so the helpers' own failures can be checked.
type failing struct {
	testing.TB
	why string
}

func (f *failing) Helper() {}

func (f *failing) Fatal(args ...any) { f.why = fmt.Sprint(args...); runtime.Goexit() }

func (f *failing) Fatalf(format string, args ...any) {
	f.why = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// failure runs fn with a failing TB and returns why it failed ("" when it
// did not).
func failure(t *testing.T, fn func(testing.TB)) string {
	f := &failing{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
	return f.why
}

// submitFails is a session that refuses every prompt.
type submitFails struct{ fakeSession }

func (submitFails) Submit(string) error { return errors.New("session closed") }

// The helpers fail the test, saying why, when what they wait for or make
// cannot be had.
func TestHelpersFailSayingWhy(t *testing.T) {
	closed := make(chan event.Event)
	close(closed)
	dir := t.TempDir()
	sessiontest.WriteFile(t, dir, "file", "x")
	for _, c := range []struct {
		name string
		fn   func(testing.TB)
		want string
	}{
		{"closed channel", func(tb testing.TB) { sessiontest.ReadUntil(tb, &fakeSession{events: closed}, sessiontest.MainEnded) }, "event channel closed early"},
		{"refused prompt", func(tb testing.TB) { sessiontest.RunTurn(tb, &submitFails{}, "go", nil) }, "Submit: session closed"},
		{"no match", func(tb testing.TB) { sessiontest.Contains(tb, "reply", "hello", "bye") }, `reply: "hello" does not contain "bye"`},
		{"folder under a file", func(tb testing.TB) { sessiontest.WriteFile(tb, dir, "file/inner", "x") }, "not a directory"},
		{"repository nowhere", func(tb testing.TB) { sessiontest.GitRepo(tb, filepath.Join(dir, "missing")) }, "git [init -q -b main]"},
	} {
		if got := failure(t, c.fn); !strings.Contains(got, c.want) {
			t.Errorf("%s: failed with %q, want %q", c.name, got, c.want)
		}
	}
}
