package process

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// inProcess launches a child by running Serve on a goroutine of this
// process, its standard streams pipes: both ends of the protocol run
// in the test, with no process started, so each question, answer and
// control is seen from both sides. The tests with real processes
// (runner_test.go, kill_test.go, key_test.go) keep what only a process
// has: its death, its environment, its commands' clean-up.
type inProcess struct{}

// errKilled is what a killed served child's reads and writes fail with.
var errKilled = errors.New("killed")

// Launch implements Launcher.
func (inProcess) Launch(_ context.Context, _ child.Job, _ []string, stderr io.Writer) (Proc, error) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &servedProc{inR: inR, inW: inW, outR: outR, outW: outW, done: make(chan struct{})}
	// Ends when Serve returns: the child's result is written, or its
	// input or output closed (Kill).
	go func() {
		defer close(p.done)
		p.code = Serve(inR, outW, stderr)
		_ = outW.Close()
		_ = inR.Close()
	}()
	return p, nil
}

// servedProc is a child served by inProcess.
type servedProc struct {
	inR  *io.PipeReader
	inW  *io.PipeWriter
	outR *io.PipeReader
	outW *io.PipeWriter
	done chan struct{}
	code int
}

func (p *servedProc) Stdin() io.WriteCloser { return p.inW }
func (p *servedProc) Stdout() io.Reader     { return p.outR }

// Kill ends the child's streams as a killed process's end: its input
// fails and its output ends.
func (p *servedProc) Kill() {
	_ = p.inR.CloseWithError(errKilled)
	_ = p.outW.CloseWithError(io.EOF)
}

// Wait waits for Serve to return, as for a process to exit.
func (p *servedProc) Wait() error {
	<-p.done
	if p.code != 0 {
		return fmt.Errorf("exit status %d", p.code)
	}
	return nil
}

// authorizer decides tool calls for the tests and remembers them.
type authorizer struct {
	mu       sync.Mutex
	requests []agent.ToolRequest
	previews map[string]string
	// decide answers a request; nil allows it.
	decide func(agent.ToolRequest) (tools.Withhold, error)
}

func (a *authorizer) Authorize(ctx context.Context, req agent.ToolRequest) (tools.Withhold, error) {
	preview := ""
	if req.Preview != nil {
		text, err := req.Preview(ctx)
		preview = text
		if err != nil {
			preview = "error: " + err.Error()
		}
	}
	a.mu.Lock()
	a.requests = append(a.requests, req)
	if a.previews == nil {
		a.previews = map[string]string{}
	}
	a.previews[req.Tool] = preview
	decide := a.decide
	a.mu.Unlock()
	if decide == nil {
		return nil, nil
	}
	return decide(req)
}

// asked lists the tools asked about, and whether baton knew each as
// read-only.
func (a *authorizer) asked() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for _, r := range a.requests {
		out = append(out, fmt.Sprintf("%s ro=%v", r.Tool, r.ReadOnly))
	}
	return out
}

// withholdingAuthorizer also says what searches leave out, as the
// session's policy does.
type withholdingAuthorizer struct {
	*authorizer
	workspace string
	deny      []string
}

func (w withholdingAuthorizer) Withholding(tool string) permission.Withholding {
	return permission.Withholding{Tool: tool, Workspace: w.workspace, Deny: w.deny}
}

// heldLookup is a tool that stays with baton (as an MCP server's does).
type heldLookup struct {
	mu    sync.Mutex
	calls []string
}

func (*heldLookup) Name() string                 { return "lookup" }
func (*heldLookup) Description() string          { return "Looks a word up at baton's end." }
func (*heldLookup) Schema() json.RawMessage      { return json.RawMessage(`{"type":"object"}`) }
func (*heldLookup) ReadOnly() bool               { return true }
func (*heldLookup) Title(json.RawMessage) string { return "lookup (baton's own title)" }
func (l *heldLookup) Run(_ context.Context, args json.RawMessage) (tools.Result, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, string(args))
	if strings.Contains(string(args), "fail") {
		return tools.Result{}, errors.New("the lookup server is down")
	}
	return tools.Result{Output: "looked up " + string(args), Summary: "1 hit"}, nil
}

// heldTask is a tool acting for its caller that stays with baton (task).
type heldTask struct {
	mu    sync.Mutex
	calls []agent.Call
}

func (*heldTask) Name() string                 { return child.TaskToolName }
func (*heldTask) Description() string          { return "Delegates." }
func (*heldTask) Schema() json.RawMessage      { return json.RawMessage(`{"type":"object"}`) }
func (*heldTask) ReadOnly() bool               { return false }
func (*heldTask) Title(json.RawMessage) string { return "task" }
func (*heldTask) Run(context.Context, json.RawMessage) (tools.Result, error) {
	return tools.Result{}, errors.New("task runs only for a caller")
}

func (d *heldTask) RunFor(_ context.Context, call agent.Call) (tools.Result, error) {
	// Ready at once here; Ready returns once every call of the batch is
	// ready in the child too.
	call.Stage.Ready()
	d.mu.Lock()
	d.calls = append(d.calls, call)
	d.mu.Unlock()
	call.Caller.Tell("a note from baton")
	return tools.Result{Output: fmt.Sprintf("delegated %s in a batch of %d", call.Args, len(call.Batch))}, nil
}

// recordingHooks keeps the hook points the child asked baton to run.
type recordingHooks struct {
	mu     sync.Mutex
	points []string
}

func (r *recordingHooks) add(p string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.points = append(r.points, p)
}

func (r *recordingHooks) BeforeTool(_ context.Context, call openai.ToolCall) (agent.HookAdvice, error) {
	r.add("before " + call.Function.Name)
	if call.Function.Name == "grep" {
		return agent.HookAdvice{}, errors.New("a PreToolUse hook refused grep")
	}
	return agent.HookAdvice{Context: []string{"hook says hi"}}, nil
}

func (r *recordingHooks) AfterTool(_ context.Context, call openai.ToolCall, _ string) agent.HookAdvice {
	r.add("after " + call.Function.Name)
	return agent.HookAdvice{}
}

func (r *recordingHooks) Stop(_ context.Context, last string, _ bool) agent.HookAdvice {
	r.add("stop " + last)
	return agent.HookAdvice{}
}

func (r *recordingHooks) Ended(_ context.Context, last string) { r.add("ended " + last) }

// served is a child run on the in-process launcher, and what baton took
// from it.
type served struct {
	job      child.Job
	auth     *authorizer
	lookup   *heldLookup
	task     *heldTask
	hooks    *recordingHooks
	mu       sync.Mutex
	events   []event.Event
	recorded []openai.ChatCompletionMessage
	loaded   []string
}

// newServed is a child of names, its parent tools and hooks, whose model
// is srv.
func newServed(t *testing.T, names ...string) *served {
	t.Helper()
	t.Cleanup(func() { sandbox.TagRuns("") })
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := &served{auth: &authorizer{}, lookup: &heldLookup{}, task: &heldTask{}, hooks: &recordingHooks{}}
	meta := event.Meta{Agent: "general-purpose-1", Parent: event.MainAgent, Number: 1, AgentType: "general-purpose", Description: "work"}
	s.job = child.Job{
		Spec: child.Spec{Meta: meta, Model: "m", MaxSteps: 8, Timeout: time.Minute, Workspace: ws.Root(),
			Toolbox: child.Toolbox{Names: names, Limits: tools.DefaultLimits()}, Parent: []tools.Tool{s.lookup}},
		Prompt: "do the work", History: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleSystem, Content: "you are a child"}},
		Delegate: s.task, Workspace: ws,
		Loop: child.Loop{Catalog: llm.NewCatalog(nil), SkillLoaded: func(name string) {
			s.mu.Lock()
			s.loaded = append(s.loaded, name)
			s.mu.Unlock()
		}, Instructions: func() string { return "server instructions" }},
		Link: child.Link{
			Emit:      func(ev event.Event) { s.mu.Lock(); s.events = append(s.events, ev); s.mu.Unlock() },
			Record:    func(m openai.ChatCompletionMessage) { s.mu.Lock(); s.recorded = append(s.recorded, m); s.mu.Unlock() },
			Authorize: s.auth, Hooks: s.hooks,
		},
	}
	return s
}

// start places the child on the in-process launcher against srv.
func (s *served) start(t *testing.T, ctx context.Context, srv *llmtest.Server) child.Handle {
	t.Helper()
	r := New(Options{Launcher: inProcess{}, Endpoint: srv.Endpoint(), Where: "in-process"})
	if r.Where() != "in-process" || r.Detachable(s.job) {
		t.Fatalf("Where %q, detachable %v", r.Where(), r.Detachable(s.job))
	}
	h, err := r.Start(ctx, s.job)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// ending waits for h's child to end.
func ending(t *testing.T, h child.Handle) child.Ending {
	t.Helper()
	select {
	case <-h.Done():
	case <-time.After(testTimeout):
		t.Fatal("the child did not end")
	}
	return h.Ending()
}

// testTimeout guards against hangs only; no test asserts on durations.
const testTimeout = 60 * time.Second

// toolOutputs are the tool results of a request, by call id.
func toolOutputs(r *llmtest.Request) map[string]string {
	out := map[string]string{}
	for _, m := range r.Body.Messages {
		if m.Role == openai.ChatMessageRoleTool {
			out[m.ToolCallID] = m.Content
		}
	}
	return out
}

// A child in another process works as a local one does: every tool call
// is decided at baton's end by what baton knows of the tool, a write
// holds its file in baton's lock table, tools that stay with baton run
// there (task for the child, its batch in step), the session's hooks
// run there, and baton takes its events, messages and result.
func TestServedChildAsksBatonForEverything(t *testing.T) {
	s := newServed(t, "read_file", "write_file", "grep", "load_skill")
	if err := os.WriteFile(filepath.Join(s.job.Workspace.Root(), "notes.txt"), []byte("the notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var final map[string]string
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch n := len(toolOutputs(r)); {
		case n == 0:
			if r.System() == "" || !strings.Contains(r.System(), "server instructions") {
				w.Text("no instructions: " + r.System())
				return
			}
			w.ToolCalls(llmtest.Call{ID: "r", Name: "read_file", Args: `{"path":"notes.txt"}`},
				llmtest.Call{ID: "l", Name: "lookup", Args: `{"word":"baton"}`},
				llmtest.Call{ID: "f", Name: "lookup", Args: `{"word":"fail"}`})
		case n == 3:
			w.ToolCalls(llmtest.Call{ID: "w", Name: "write_file", Args: `{"path":"out.txt","content":"written by the child\n"}`},
				llmtest.Call{ID: "g", Name: "grep", Args: `{"pattern":"notes"}`})
		case n == 5:
			w.ToolCalls(llmtest.Call{ID: "t1", Name: child.TaskToolName, Args: `{"prompt":"a"}`},
				llmtest.Call{ID: "t2", Name: child.TaskToolName, Args: `{"prompt":"b"}`})
		default:
			final = toolOutputs(r)
			w.Text("all done")
		}
	})
	e := ending(t, s.start(t, context.Background(), srv))
	if e.Status != event.StatusCompleted || e.Text != "all done" {
		t.Fatalf("ended %s %q: %s", e.Status, e.Text, e.Reason)
	}
	for id, want := range map[string]string{
		"r": "the notes", "l": `looked up {"word":"baton"}`, "f": "the lookup server is down",
		"w": "out.txt", "g": "a PreToolUse hook refused grep", "t1": "delegated", "t2": `delegated {"prompt":"b"} in a batch of 2`,
	} {
		if !strings.Contains(final[id], want) {
			t.Errorf("result of %s = %q, want %q", id, final[id], want)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(s.job.Workspace.Root(), "out.txt")); string(got) != "written by the child\n" {
		t.Errorf("out.txt = %q", got)
	}
	// Baton decided each call by its own knowledge of the tool: lookup
	// is read-only because baton's tool says so; task is not.
	// (task has its own card: it is not asked about here.)
	want := []string{"read_file ro=true", "lookup ro=true", "lookup ro=true", "write_file ro=false"}
	if got := s.auth.asked(); !slices.Equal(got, want) {
		t.Errorf("asked about %q, want %q", got, want)
	}
	if p := s.auth.previews["write_file"]; !strings.Contains(p, "written by the child") {
		t.Errorf("write_file's card preview = %q, want the child's diff", p)
	}
	s.task.mu.Lock()
	if len(s.task.calls) != 2 || s.task.calls[0].Caller.Meta.Agent != "general-purpose-1" || len(s.task.calls[1].Batch) != 2 {
		t.Errorf("task ran for %+v", s.task.calls)
	}
	s.task.mu.Unlock()
	s.hooks.mu.Lock()
	points := slices.Clone(s.hooks.points)
	s.hooks.mu.Unlock()
	for _, p := range []string{"before read_file", "after read_file", "before grep", "stop all done"} {
		if !slices.Contains(points, p) {
			t.Errorf("hook points %q lack %q", points, p)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	titled := false
	for _, ev := range s.events {
		if ev.EventMeta().Agent != "general-purpose-1" {
			t.Errorf("baton took an event about %q", ev.EventMeta().Agent)
		}
		if st, ok := ev.(event.ToolStarted); ok && st.Name == "lookup" {
			titled = st.Title == "lookup (baton's own title)"
		}
	}
	if !titled {
		t.Error("a call of a tool that stays with baton does not carry baton's title")
	}
	if len(s.recorded) == 0 || len(e.History) != 1+len(s.recorded) || e.Stats.ToolCalls != 7 {
		t.Errorf("recorded %d messages, history %d, %d tool calls", len(s.recorded), len(e.History), e.Stats.ToolCalls)
	}
}

// A refusal at baton's end reaches the child's model as the refusal, and
// an allowed search leaves out what baton's rules withhold; a policy
// that cannot say what it withholds refuses the search rather than let
// the child search unfiltered.
func TestServedChildDenialsAndWithholding(t *testing.T) {
	s := newServed(t, "read_file", "grep", "list_files")
	root := s.job.Workspace.Root()
	for name, text := range map[string]string{"open.txt": "needle open\n", "secret.txt": "needle secret\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s.auth.decide = func(req agent.ToolRequest) (tools.Withhold, error) {
		switch req.Tool {
		case "read_file":
			return nil, &agent.DeniedError{Tool: req.Tool, Reason: "not that file"}
		case "grep", "list_files":
			return func(string) (string, bool) { return "", false }, nil
		}
		return nil, nil
	}
	s.job.Link.Authorize = withholdingAuthorizer{authorizer: s.auth, workspace: root, deny: []string{"read_file(secret.txt)"}}
	s.job.Link.Hooks = nil
	var final map[string]string
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if len(toolOutputs(r)) == 0 {
			w.ToolCalls(llmtest.Call{ID: "r", Name: "read_file", Args: `{"path":"open.txt"}`},
				llmtest.Call{ID: "g", Name: "grep", Args: `{"pattern":"needle"}`})
			return
		}
		final = toolOutputs(r)
		w.Text("done")
	})
	e := ending(t, s.start(t, context.Background(), srv))
	if e.Status != event.StatusCompleted {
		t.Fatalf("ended %s: %s", e.Status, e.Reason)
	}
	if !strings.Contains(final["r"], "not that file") {
		t.Errorf("the denial did not reach the model: %q", final["r"])
	}
	if !strings.Contains(final["g"], "open.txt") || strings.Contains(final["g"], "needle secret") {
		t.Errorf("grep did not withhold secret.txt: %q", final["g"])
	}

	// The same search with a policy that cannot describe its rules.
	s2 := newServed(t, "grep")
	s2.auth.decide = s.auth.decide
	s2.job.Link.Hooks = nil
	srv2 := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if len(toolOutputs(r)) == 0 {
			w.ToolCalls(llmtest.Call{ID: "g", Name: "grep", Args: `{"pattern":"x"}`})
			return
		}
		final = toolOutputs(r)
		w.Text("done")
	})
	if e := ending(t, s2.start(t, context.Background(), srv2)); e.Status != event.StatusCompleted {
		t.Fatalf("ended %s: %s", e.Status, e.Reason)
	}
	if !strings.Contains(final["g"], "cannot tell the child what its rules keep") {
		t.Errorf("an unfiltered search was allowed: %q", final["g"])
	}
}

// Controls reach a running child: a steer is read before its next
// request, a wind-down makes it report and end stopped, as the person
// asked; once it has finished a control says so.
func TestServedChildTakesControls(t *testing.T) {
	s := newServed(t, "read_file")
	s.job.Steers = []string{"a steer from before it started"}
	var h child.Handle
	asked := make(chan struct{})
	release := make(chan struct{})
	var mu sync.Mutex
	var seen []string
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		mu.Lock()
		seen = append(seen, r.LastUser())
		n := len(seen)
		mu.Unlock()
		if n == 1 {
			close(asked)
			select {
			case <-release:
			case <-w.Context().Done():
				return
			}
			w.ToolCalls(llmtest.Call{ID: "r", Name: "read_file", Args: `{"path":"none.txt"}`})
			return
		}
		w.Text("reported")
	})
	h = s.start(t, context.Background(), srv)
	<-asked
	if err := h.Control(child.Control{Kind: child.Steer, Text: "look at the tests too"}); err != nil {
		t.Fatal(err)
	}
	if err := h.Control(child.Control{Kind: child.WindDown}); err != nil {
		t.Fatal(err)
	}
	close(release)
	e := ending(t, h)
	if e.Status != event.StatusStopped || e.Text != "reported" || e.Reason != "wound down by the person" {
		t.Fatalf("ended %s %q: %s", e.Status, e.Text, e.Reason)
	}
	mu.Lock()
	first, second := seen[0], seen[len(seen)-1]
	mu.Unlock()
	if !strings.Contains(first, "a steer from before it started") {
		t.Errorf("the first request's last user message = %q, want the early steer", first)
	}
	if !strings.Contains(second, "look at the tests too") {
		t.Errorf("the steer did not reach the next request: %q", second)
	}
	if err := h.Control(child.Control{Kind: child.Steer, Text: "late"}); err == nil || !strings.Contains(err.Error(), "finished") {
		t.Fatalf("a control after the end: %v", err)
	}
}

// Stopping a child tells it why, and it ends with the status the cause
// gives, with what it had done; a child that reports nothing after the
// abort is killed (here: its input already gone) and ends failed with
// what it had reported.
func TestServedChildStopsWithItsCause(t *testing.T) {
	for _, c := range []struct {
		cause  error
		abort  string
		status event.Status
		reason string
	}{
		{agent.ErrStopped, abortStopped, event.StatusCancelled, agent.ErrStopped.Error()},
		{agent.ErrSessionEnded, abortSessionEnded, event.StatusInterrupted, agent.ErrSessionEnded.Error()},
		{context.DeadlineExceeded, abortTimedOut, event.StatusTimedOut, "timed out"},
		{context.Canceled, abortCancelled, event.StatusCancelled, "cancelled"},
	} {
		t.Run(c.abort, func(t *testing.T) {
			s := newServed(t, "read_file")
			asked := make(chan struct{})
			srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
				w.Chunk(`{"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"halfway"}}]}`)
				close(asked)
				<-w.Context().Done()
			})
			ctx, cancel := context.WithCancelCause(context.Background())
			h := s.start(t, ctx, srv)
			<-asked
			cancel(c.cause)
			if got := abortCause(ctx); got != c.abort {
				t.Fatalf("abortCause = %q, want %q", got, c.abort)
			}
			e := ending(t, h)
			if e.Status != c.status || e.Reason != c.reason {
				t.Fatalf("ended %s (%s), want %s (%s)", e.Status, e.Reason, c.status, c.reason)
			}
		})
	}
}

// Serve refuses a first line that is not a spec, and a spec whose
// workspace is not there, with status 2 and a reason on its standard
// error.
func TestServeRefusesABadSpec(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"empty":        {"", "read the spec: EOF"},
		"not JSON":     {"hello\n", "read the spec: invalid character"},
		"no spec":      {`{"reply":{"id":1}}` + "\n", "the first line holds no spec"},
		"no workspace": {`{"spec":{"workspace":"/nonexistent/baton-ws","tag":"t"}}` + "\n", "baton child:"},
	} {
		var errs strings.Builder
		if code := Serve(strings.NewReader(c.in), io.Discard, &errs); code != 2 || !strings.Contains(errs.String(), c.want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", name, code, errs.String(), c.want)
		}
	}
	sandbox.TagRuns("")
}
