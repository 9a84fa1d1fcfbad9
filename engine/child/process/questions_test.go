package process

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// handleOf is a handle of s's job whose lines to the child go nowhere.
func handleOf(s *served) *handle {
	h := newHandle(s.job, "ctest")
	h.in = &lineWriter{w: io.Discard}
	h.proc = &servedProc{inR: new(io.PipeReader), outW: new(io.PipeWriter), done: make(chan struct{})}
	h.caught = true
	return h
}

// A child process is trusted no further than the protocol: what it asks
// for beyond its own tools and workspace is refused at baton's end.
func TestAChildAsksForWhatItWasNotGiven(t *testing.T) {
	s := newServed(t, "read_file")
	h := handleOf(s)
	ctx := context.Background()
	root := s.job.Workspace.Root()
	for name, c := range map[string]struct {
		q    question
		want string
	}{
		"a tool it lacks":      {question{ID: 1, Authorize: &authorize{Tool: "run_command", Args: json.RawMessage(`{"command":"id"}`)}}, `tool "run_command" is not available to this agent`},
		"a held tool it lacks": {question{ID: 2, Tool: &toolCall{Name: "mcp__evil__exfiltrate"}}, `tool "mcp__evil__exfiltrate" is not available`},
		"a lock outside":       {question{ID: 3, Lock: "/etc/passwd"}, "not a file of the workspace"},
		"a lock by dot-dot":    {question{ID: 4, Lock: root + "/../escape.txt"}, "not a file of the workspace"},
		"a relative lock":      {question{ID: 5, Lock: "notes.txt"}, "not a file of the workspace"},
		"a lock beside it":     {question{ID: 6, Lock: root + "-sibling/x"}, "not a file of the workspace"},
		"an empty question":    {question{ID: 7}, "baton does not know this question"},
		"a hook point unknown": {question{ID: 8, Hook: &hookPoint{At: "whenever"}}, `no hook point "whenever"`},
	} {
		r := h.answer(ctx, c.q)
		if r.ID != c.q.ID || !strings.Contains(r.Error, c.want) {
			t.Errorf("%s: reply %+v, want an error with %q", name, r, c.want)
		}
	}
	// A hook question when the session has no hooks is not one baton
	// knows either.
	s.job.Link.Hooks = nil
	if r := newHandle(s.job, "").answer(ctx, question{ID: 9, Hook: &hookPoint{At: hookEnded}}); !strings.Contains(r.Error, "does not know") {
		t.Errorf("a hook question without hooks: %+v", r)
	}
	// task is a tool acting for its caller, run only for one.
	if _, err := s.task.Run(ctx, nil); err == nil {
		t.Error("task ran without a caller")
	}
}

// The hook points run the session's hooks with what the child said.
func TestHookPointsRunTheSessionsHooks(t *testing.T) {
	s := newServed(t, "read_file")
	h := handleOf(s)
	ctx := context.Background()
	call := openai.ToolCall{ID: "c", Function: openai.FunctionCall{Name: "read_file"}}
	for _, p := range []hookPoint{{At: hookBeforeTool, Call: call}, {At: hookAfterTool, Call: call, Output: "x"}, {At: hookStop, Last: "the end"}, {At: hookEnded, Last: "cut short"}} {
		if r := h.answer(ctx, question{ID: 1, Hook: &p}); r.Error != "" {
			t.Errorf("%s: %s", p.At, r.Error)
		}
	}
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	want := "before read_file|after read_file|stop the end|ended cut short"
	if got := strings.Join(s.hooks.points, "|"); got != want {
		t.Errorf("hooks ran %q, want %q", got, want)
	}
}

// A lock a child holds is given back when it says so, and every lock it
// still holds when it ends is given back for it.
func TestLocksAreGivenBack(t *testing.T) {
	s := newServed(t, "write_file")
	h := handleOf(s)
	ctx := context.Background()
	path := filepath.Join(s.job.Workspace.Root(), "a.txt")
	if r := h.answer(ctx, question{ID: 1, Lock: path}); r.Error != "" {
		t.Fatal(r.Error)
	}
	// Held: another writer of the workspace waits.
	waitCtx, cancel := context.WithTimeout(ctx, time.Millisecond)
	if _, err := s.job.Workspace.Lock(waitCtx, path); err == nil {
		t.Fatal("a held file was locked again")
	}
	cancel()
	h.unlock(1)
	unlock, err := s.job.Workspace.Lock(ctx, path)
	if err != nil {
		t.Fatalf("after the child gave the file back: %v", err)
	}
	unlock()
	if r := h.answer(ctx, question{ID: 2, Lock: path}); r.Error != "" {
		t.Fatal(r.Error)
	}
	h.letGo() // the child ended holding it
	unlock, err = s.job.Workspace.Lock(ctx, path)
	if err != nil {
		t.Fatalf("after the child ended: %v", err)
	}
	unlock()
}

// Only the kinds of event a loop emits, about the child itself, are
// taken from it; its start, end and cards are baton's to say.
func TestOnlyTheChildsOwnLoopEventsAreTaken(t *testing.T) {
	self := event.Meta{Agent: "explore-1", Parent: event.MainAgent, Number: 1}
	for _, ev := range []event.Event{
		event.TextDelta{Meta: self, Text: "t"}, event.ReasoningDelta{Meta: self}, event.MessageDone{Meta: self},
		event.StepStarted{Meta: self}, event.ToolStarted{Meta: self}, event.ToolFinished{Meta: self},
		event.UsageReported{Meta: self}, event.Retrying{Meta: self}, event.Notice{Meta: self},
		event.ErrorOccurred{Meta: self}, event.TodosUpdated{Meta: self}, event.AgentMessage{Meta: self},
	} {
		data, err := event.MarshalEvent(ev)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeEvent(data, self)
		if err != nil || got.Kind() != ev.Kind() {
			t.Errorf("%s: %v, %v", ev.Kind(), got, err)
		}
		other := self
		other.Agent = event.MainAgent
		if _, err := decodeEvent(data, other); err == nil || !strings.Contains(err.Error(), "not itself") {
			t.Errorf("%s about another agent: %v", ev.Kind(), err)
		}
	}
	for _, ev := range []event.Event{event.AgentStarted{Meta: self}, event.AgentFinished{Meta: self}, event.ApprovalRequested{Meta: self}} {
		data, _ := event.MarshalEvent(ev)
		if _, err := decodeEvent(data, self); err == nil || !strings.Contains(err.Error(), "which a child does not send") {
			t.Errorf("%s: %v", ev.Kind(), err)
		}
	}
	for _, bad := range []string{`[`, `{"type":"text_delta","text":7}`} {
		if _, err := decodeEvent([]byte(bad), self); err == nil {
			t.Errorf("%s was taken", bad)
		}
	}
}

// Lines that break the protocol end the child: after its result, empty,
// a status no loop ends with; the others are taken in their way.
func TestTakeRefusesLinesOutsideTheProtocol(t *testing.T) {
	s := newServed(t, "read_file")
	h := handleOf(s)
	ctx := context.Background()
	line := func(u up) []byte { data, _ := json.Marshal(u); return data }
	for _, c := range []struct {
		line []byte
		want string
	}{
		{[]byte(`{}`), "an empty line"},
		{[]byte(`not json`), "invalid character"},
		{line(up{Result: &agent.Result{Status: event.StatusDenied}}), `a result with status "denied"`},
		{line(up{Loaded: "go-style"}), ""},
		{line(up{Unlock: 42}), ""},
		{line(up{Go: 42}), ""},
		{line(up{Result: &agent.Result{Status: event.StatusCompleted, Text: "done"}}), ""},
		{line(up{Loaded: "late"}), "a line after its result"},
	} {
		err := h.take(ctx, c.line)
		if (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.line, err, c.want)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.loaded) != 1 || s.loaded[0] != "go-style" {
		t.Errorf("skills loaded %q", s.loaded)
	}
}

// endless is a line that never ends.
type endless struct{}

// xs fill what endless reads.
var xs = []byte(strings.Repeat("x", 64<<10))

func (endless) Read(p []byte) (int, error) { return copy(p, xs), nil }

// A line longer than the bound is refused, not buffered whole; a line
// cut short is an unexpected end.
func TestLineReaderBounds(t *testing.T) {
	if _, err := newLineReader(endless{}).next(); !errors.Is(err, errLongLine) {
		t.Fatalf("a line over the bound: %v", err)
	}
	lr := newLineReader(strings.NewReader("whole\ncut"))
	if line, err := lr.next(); err != nil || string(line) != "whole" {
		t.Fatalf("first line %q, %v", line, err)
	}
	if _, err := lr.next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("a cut line: %v", err)
	}
	if err := (&lineWriter{w: io.Discard}).write(func() {}); err == nil {
		t.Fatal("a value JSON cannot hold was written")
	}
	if err := (&relay{}).write(down{}); err == nil || !strings.Contains(err.Error(), "not a line a child sends") {
		t.Fatalf("a relay took a line of baton's: %v", err)
	}
}

// A child without a network of its own reaches the endpoint through the
// socket baton relays, whatever address its base URL names.
func TestEndpointThroughASocket(t *testing.T) {
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	srv.ServeModels("relayed-model")
	sock := filepath.Join(shortTemp(t), "endpoint.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	target := strings.TrimSuffix(strings.TrimPrefix(srv.URL, "http://"), "/v1")
	proxy := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.URL.Scheme, r.URL.Host, r.RequestURI = "http", target, ""
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	})}
	done := make(chan struct{})
	go func() { defer close(done); _ = proxy.Serve(ln) }()
	defer func() { _ = proxy.Close(); <-done }()

	cfg := endpoint{BaseURL: "http://api.nowhere.invalid/v1", APIKey: llmtest.Key, Socket: sock}.config()
	if cfg.HTTPClient == nil || cfg.BaseURL != "http://api.nowhere.invalid/v1" {
		t.Fatalf("config = %+v", cfg)
	}
	resp, err := cfg.HTTPClient.Get("http://api.nowhere.invalid/v1/models")
	if err != nil {
		t.Fatalf("through the socket: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if !strings.Contains(string(body), "relayed-model") {
		t.Fatalf("through the socket: %s", body)
	}
	if direct := (endpoint{BaseURL: srv.URL}).config(); direct.HTTPClient != nil {
		t.Fatal("an endpoint without a socket got a client of its own")
	}
}

// shortTemp is a folder with room for a socket's name.
func shortTemp(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", "bpt-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// A process that took a detached child's number since is never killed
// for it: only one whose command line is that child's.
func TestKillFoundSparesAProcessThatIsNotTheChild(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	killFound(cmd.Process.Pid, "general-purpose-1")
	killFound(0, "general-purpose-1")
	killFound(-1, "general-purpose-1")
	var status syscall.WaitStatus
	if pid, err := syscall.Wait4(cmd.Process.Pid, &status, syscall.WNOHANG, nil); pid != 0 || err != nil {
		t.Fatalf("the unrelated process was killed: %v %v", status, err)
	}
	// Abandon of a home naming it spares it too.
	home := t.TempDir()
	h, err := newHome(home, true)
	if err != nil {
		t.Fatal(err)
	}
	h.started()
	if err := h.save(cmd.Process.Pid, ""); err != nil {
		t.Fatal(err)
	}
	h.close()
	Abandon(home, "general-purpose-1")
	if pid, err := syscall.Wait4(cmd.Process.Pid, &status, syscall.WNOHANG, nil); pid != 0 || err != nil {
		t.Fatalf("Abandon killed an unrelated process: %v %v", status, err)
	}
}

// A home that cannot be made or read fails the start or the attach with
// a reason; its standard error is read back bounded.
func TestHomeFailures(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s := newServed(t, "read_file")
	s.job.Home = filepath.Join(file, "home")
	if _, err := New(Options{}).Start(context.Background(), s.job); err == nil || !strings.Contains(err.Error(), "make the child's folder") {
		t.Fatalf("Start under a file: %v", err)
	}
	if _, err := New(Options{}).Attach(context.Background(), s.job); err == nil || !strings.Contains(err.Error(), "find the child again") {
		t.Fatalf("Attach without a home: %v", err)
	}
	damaged := t.TempDir()
	if err := os.WriteFile(filepath.Join(damaged, attachName), []byte(`{"socket":""}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s.job.Home = damaged
	if _, err := New(Options{}).Attach(context.Background(), s.job); err == nil || !strings.Contains(err.Error(), "is damaged") {
		t.Fatalf("Attach with a damaged home: %v", err)
	}
	// A home whose child is gone and left no log.
	h, err := newHome(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	h.started()
	if err := h.save(0, ""); err != nil {
		t.Fatal(err)
	}
	h.close()
	s.job.Home = h.dir
	if _, err := New(Options{}).Attach(context.Background(), s.job); err == nil || !strings.Contains(err.Error(), "find the child again") {
		t.Fatalf("Attach without a log: %v", err)
	}
	// Only the last 2 KiB of what it said, as valid text.
	said := "\xff" + strings.Repeat("a", 4<<10) + "the end"
	if err := os.WriteFile(filepath.Join(h.dir, stderrName), []byte(said), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := h.String(); len(got) != 2<<10 || !strings.HasSuffix(got, "the end") {
		t.Fatalf("stderr tail is %d bytes", len(got))
	}
	again, err := openHome(h.dir)
	if err != nil {
		t.Fatal(err)
	}
	again.took(5)
	again.took(3) // an older line taken again changes nothing
	again.close()
	if third, err := openHome(h.dir); err != nil || third.taken != 5 {
		t.Fatalf("taken is not 5: %v", err)
	} else {
		third.close()
	}
	if _, _, err := peerOf(&net.TCPConn{}); err == nil {
		t.Fatal("a TCP connection's peer was read as a Unix socket's")
	}
}

// failingLauncher cannot start a process.
type failingLauncher struct{}

func (failingLauncher) Launch(context.Context, child.Job, []string, io.Writer) (Proc, error) {
	return nil, errors.New("no room for another process")
}

// A launcher that fails fails the start; a child whose endpoint refuses
// it ends failed, its SubagentStop hooks run at baton's end.
func TestStartFailuresAndAFailedChildsHooks(t *testing.T) {
	s := newServed(t, "read_file")
	if _, err := New(Options{Launcher: failingLauncher{}}).Start(context.Background(), s.job); err == nil || !strings.Contains(err.Error(), "no room") {
		t.Fatalf("Start = %v", err)
	}
	s.job.Spec.Depth = 1 // a child's SubagentStop hooks
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		w.Error(http.StatusBadRequest, `{"error":{"message":"model m does not exist"}}`)
	})
	e := ending(t, s.start(t, context.Background(), srv))
	if e.Status != event.StatusFailed || !strings.Contains(e.Reason, "does not exist") {
		t.Fatalf("ended %s: %s", e.Status, e.Reason)
	}
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	if len(s.hooks.points) == 0 || !strings.HasPrefix(s.hooks.points[len(s.hooks.points)-1], "ended") {
		t.Fatalf("hook points %q, want the ended hooks last", s.hooks.points)
	}
}

// A child process that dies in the middle of a message ends failed with
// the words it had streamed and the steps it had made, and baton says
// what it last wrote to its standard error.
func TestAChildKilledMidMessageKeepsWhatItStreamed(t *testing.T) {
	s := newServed(t, "read_file")
	streaming := make(chan struct{})
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		w.Chunk(`{"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"the half of"}}]}`)
		w.Chunk(`{"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":" a report"}}]}`)
		close(streaming)
		<-w.Context().Done()
	})
	// Baton has taken both deltas once its session is told of the second.
	taken := make(chan struct{})
	var text strings.Builder
	emit := s.job.Link.Emit
	s.job.Link.Emit = func(ev event.Event) {
		emit(ev)
		if d, ok := ev.(event.TextDelta); ok {
			text.WriteString(d.Text)
			if strings.Contains(text.String(), "a report") {
				close(taken)
			}
		}
	}
	h := s.start(t, context.Background(), srv)
	<-streaming
	<-taken
	h.(*handle).proc.Kill()
	e := ending(t, h)
	if e.Status != event.StatusFailed || e.Text != "the half of a report" || e.Stats.Steps != 1 {
		t.Fatalf("ended %s with %q after %d steps: %s", e.Status, e.Text, e.Stats.Steps, e.Reason)
	}
	if !strings.Contains(e.Reason, "the child process failed: its process ended without reporting its result (exit status 1)") {
		t.Fatalf("reason %q", e.Reason)
	}
}
