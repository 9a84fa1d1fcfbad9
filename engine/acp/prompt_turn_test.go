package acp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/acp/acptest"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

func TestInitializeOffersSessionsWithoutSignIn(t *testing.T) {
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("unused") })
	resp := r.initialize()
	raw, _ := json.Marshal(resp)
	for _, want := range []string{`"protocolVersion":1`, `"loadSession":true`, `"embeddedContext":true`, `"image":false`,
		`"authMethods":[]`, `"name":"baton"`, `"http":true`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("initialize answer lacks %s:\n%s", want, raw)
		}
	}
}

func TestPromptStreamsTheAnswer(t *testing.T) {
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) {
		w.Text("The answer is forty-two, streamed in pieces.")
	})
	session := r.newSession()
	r.mustPrompt(session, "what is the answer?")
	if got := answerText(r.client.Updates(), "agent_message_chunk"); got != "The answer is forty-two, streamed in pieces." {
		t.Errorf("streamed answer = %q", got)
	}
	if n := len(r.client.Updates()); n < 2 {
		t.Errorf("the answer came in %d update(s); want it streamed", n)
	}
	last := r.llm.Requests()[0].Body.Messages
	if got := last[len(last)-1].Content; got != "what is the answer?" {
		t.Errorf("the model got %q", got)
	}
}

func TestPromptCarriesAttachedFilesAndLinks(t *testing.T) {
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("seen") })
	session := r.newSession()
	text := "package auth\n\nfunc Login() {}\n"
	var resp struct {
		StopReason string `json:"stopReason"`
	}
	err := r.client.Call("session/prompt", map[string]any{"sessionId": session, "prompt": []any{
		map[string]any{"type": "text", "text": "review these"},
		map[string]any{"type": "resource", "resource": map[string]any{"uri": "file://" + r.ws + "/auth/login.go", "text": text, "mimeType": "text/x-go"}},
		map[string]any{"type": "resource_link", "uri": "file://" + r.ws + "/README.md", "name": "README.md"},
	}}, &resp)
	if err != nil {
		t.Fatal(err)
	}
	msgs := r.llm.Requests()[0].Body.Messages
	got := msgs[len(msgs)-1].Content
	for _, want := range []string{"review these", "Attached: auth/login.go\n```\npackage auth\n\nfunc Login() {}\n```", "Attached: README.md"} {
		if !strings.Contains(got, want) {
			t.Errorf("the prompt the model got lacks %q:\n%s", want, got)
		}
	}
}

func TestPromptRefusesImages(t *testing.T) {
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("unused") })
	session := r.newSession()
	err := r.client.Call("session/prompt", map[string]any{"sessionId": session, "prompt": []any{
		map[string]any{"type": "image", "data": "AAAA", "mimeType": "image/png"},
	}}, nil)
	if err == nil || !strings.Contains(err.Error(), `not "image"`) || !strings.Contains(err.Error(), "-32602") {
		t.Fatalf("an image prompt: err = %v, want invalid params naming the image", err)
	}
	if n := len(r.llm.Requests()); n != 0 {
		t.Errorf("%d requests reached the model", n)
	}
}

func TestPromptOnUnknownSessionIsNotFound(t *testing.T) {
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("unused") })
	r.initialize()
	_, err := r.prompt("no-such-session", "hello")
	if err == nil || !strings.Contains(err.Error(), "-32002") {
		t.Fatalf("err = %v, want resource not found", err)
	}
}

func TestFailedTurnIsAnErrorWithTheReason(t *testing.T) {
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) {
		w.Error(400, `{"error":{"message":"model does not exist"}}`)
	})
	session := r.newSession()
	_, err := r.prompt(session, "hello")
	if err == nil || !strings.Contains(err.Error(), "model does not exist") {
		t.Fatalf("err = %v, want the provider's reason", err)
	}
}

func TestCancelEndsThePromptCancelled(t *testing.T) {
	streaming := make(chan struct{})
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) {
		w.Chunk(`{"choices":[{"index":0,"delta":{"content":"thinking about it"}}]}`)
		close(streaming)
		<-w.Context().Done()
	})
	session := r.newSession()
	type result struct {
		stop string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		stop, err := r.prompt(session, "take your time")
		done <- result{stop, err}
	}()
	<-streaming
	r.client.WaitUpdate(0, func(u acptest.Update) bool { return u.Kind == "agent_message_chunk" })
	r.client.Notify("session/cancel", map[string]any{"sessionId": session})
	res := <-done
	if res.err != nil || res.stop != "cancelled" {
		t.Fatalf("prompt after cancel: stop %q, err %v; want cancelled", res.stop, res.err)
	}
}

func TestReasoningStreamsAsThoughts(t *testing.T) {
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) {
		w.Chunk(`{"choices":[{"index":0,"delta":{"reasoning_content":"weighing the options"}}]}`)
		w.Text("decided")
	})
	session := r.newSession()
	r.mustPrompt(session, "think first")
	updates := r.client.Updates()
	if got := answerText(updates, "agent_thought_chunk"); got != "weighing the options" {
		t.Errorf("thoughts = %q", got)
	}
	if got := answerText(updates, "agent_message_chunk"); got != "decided" {
		t.Errorf("answer = %q", got)
	}
}

func TestPromptsBatonCannotTakeAreInvalidParams(t *testing.T) {
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("unused") })
	session := r.newSession()
	for _, c := range []struct {
		blocks []any
		want   string
	}{
		{[]any{map[string]any{"type": "text", "text": " \n "}}, "the prompt is empty"},
		{[]any{}, "the prompt is empty"},
		{[]any{map[string]any{"type": "resource"}}, "a resource block without its resource"},
	} {
		err := r.client.Call("session/prompt", map[string]any{"sessionId": session, "prompt": c.blocks}, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "-32602") {
			t.Errorf("%v: err = %v, want invalid params saying %q", c.blocks, err, c.want)
		}
	}
	if n := len(r.llm.Requests()); n != 0 {
		t.Errorf("%d requests reached the model", n)
	}
	if _, err := promptText([]contentBlock{{Type: "text", Text: strings.Repeat("x", maxPromptBytes+1)}}, "/ws"); err == nil || !strings.Contains(err.Error(), "over baton's") {
		t.Errorf("a prompt over the bound: err = %v", err)
	}
}

func TestLinksThatAreNoFilesKeepTheirURIOrName(t *testing.T) {
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("seen") })
	session := r.newSession()
	err := r.client.Call("session/prompt", map[string]any{"sessionId": session, "prompt": []any{
		map[string]any{"type": "text", "text": "compare"},
		map[string]any{"type": "resource_link", "uri": "https://example.com/spec.html", "name": "spec"},
		map[string]any{"type": "resource_link", "uri": "", "name": "scratch buffer"},
		map[string]any{"type": "resource_link", "uri": "file:///etc/../etc/hosts", "name": "hosts"},
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := r.llm.Requests()[0].LastUser()
	if want := "compare\n\nAttached: https://example.com/spec.html\n\nAttached: scratch buffer\n\nAttached: /etc/hosts"; got != want {
		t.Errorf("the model got %q, want %q", got, want)
	}
}

// A second prompt while one runs is refused; the first carries on.
func TestSecondPromptWhileOneRunsIsRefused(t *testing.T) {
	streaming, release := make(chan struct{}), make(chan struct{})
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) {
		close(streaming)
		select {
		case <-release:
		case <-w.Context().Done():
			return
		}
		w.Text("first done")
	})
	session := r.newSession()
	first := make(chan error, 1)
	go func() {
		stop, err := r.prompt(session, "first")
		if err == nil && stop != "end_turn" {
			err = fmt.Errorf("stopReason %q", stop)
		}
		first <- err
	}()
	<-streaming
	if _, err := r.prompt(session, "second"); err == nil || !strings.Contains(err.Error(), "a prompt is already running in this session (-32600)") {
		t.Errorf("a second prompt: err = %v", err)
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if n := len(r.llm.Requests()); n != 1 {
		t.Errorf("%d requests; the second prompt reached the model", n)
	}
}

// A client that gives up on its prompt request ($/cancel_request) stops
// the turn, which answers cancelled.
func TestClientGivingUpOnThePromptStopsTheTurn(t *testing.T) {
	streaming := make(chan struct{})
	stopped := make(chan struct{})
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) {
		close(streaming)
		<-w.Context().Done()
		close(stopped)
	})
	session := r.newSession() // requests 1 and 2: the prompt is request 3
	done := make(chan string, 1)
	go func() {
		stop, err := r.prompt(session, "take your time")
		if err != nil {
			t.Error(err)
		}
		done <- stop
	}()
	<-streaming
	r.client.Notify("$/cancel_request", map[string]any{"requestId": 3})
	if stop := <-done; stop != "cancelled" {
		t.Errorf("stopReason = %q, want cancelled", stop)
	}
	<-stopped // the model's stream was closed
}

func TestTurnAtItsStepLimitEndsMaxTurnRequests(t *testing.T) {
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) {
		w.ToolCalls(llmtest.Call{ID: fmt.Sprintf("l%d", req.Index), Name: "list_files", Args: `{"path":"."}`})
	})
	r.limits.MaxSteps = 2
	session := r.newSession()
	stop, err := r.prompt(session, "loop forever")
	if err != nil || stop != "max_turn_requests" {
		t.Fatalf("stop %q, err %v; want max_turn_requests", stop, err)
	}
	if n := len(r.llm.Requests()); n != 2 {
		t.Errorf("%d requests, want the limit's 2", n)
	}
}

// A provider that fails once and then answers shows the person a retry
// notice, then the answer.
func TestRetryIsANoticeThenTheAnswer(t *testing.T) {
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) {
		if req.Index == 0 {
			w.Error(503, `{"error":{"message":"overloaded"}}`)
			return
		}
		w.Text("answered on the second try")
	})
	r.retries = []time.Duration{time.Millisecond}
	session := r.newSession()
	r.mustPrompt(session, "hello")
	u, _ := r.client.WaitUpdate(0, func(u acptest.Update) bool { return u.Kind == "notice" })
	var n noticeUpdate
	if err := u.Field(&n); err != nil || n.Severity != "warning" || !strings.Contains(n.Title, "retrying") || !strings.Contains(n.Title, "(1/1)") {
		t.Errorf("retry notice: %+v (%v)", n, err)
	}
	if got := answerText(r.client.Updates(), "agent_message_chunk"); got != "answered on the second try" {
		t.Errorf("answer = %q", got)
	}
}
