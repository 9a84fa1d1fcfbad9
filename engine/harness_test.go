package engine

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/child/process"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sandbox"

	"go.uber.org/goleak"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

func TestMain(m *testing.M) {
	// This binary starts itself (sandbox stages, servers, baton): built
	// with -race, each such process would sleep a second as it exits.
	if _, set := os.LookupEnv("GORACE"); !set {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	sandbox.Main() // commands re-execute the test binary as their sandbox
	process.Main() // and children placed in processes of their own, as baton __child
	goleak.VerifyTestMain(m)
}

// runner places the children of every test session: the suite runs with
// -runner=process as well as with the default, so that every behaviour
// of a child holds whatever runner places it.
var runner = flag.String("runner", child.RunnerLocal, "the runner that places the test sessions' children: local or process")

// testTimeout guards against hangs only; no test asserts on durations.
const testTimeout = 20 * time.Second

// newTestSession starts a session against a scripted server in a fresh
// workspace. mutate may adjust the config before the session starts.
func newTestSession(t testing.TB, respond llmtest.Responder, mutate func(*Config)) (*Session, *llmtest.Server) {
	t.Helper()
	srv := llmtest.NewServer(t, respond)
	cfg := Config{Client: srv.Client(), Endpoint: srv.Endpoint(), Model: "test-model", Workspace: t.TempDir(), Mode: permission.Yolo,
		RetryDelays: []time.Duration{time.Millisecond, time.Millisecond}, Runner: *runner}
	if mutate != nil {
		mutate(&cfg)
	}
	s, err := NewSession(context.Background(), cfg)
	if err != nil {
		t.Fatalf("NewSession: %v", err)
	}
	t.Cleanup(s.Close)
	return s, srv
}

// turnLog is the events of one turn, safe to read after runTurn returns.
type turnLog struct {
	mu     sync.Mutex
	events []event.Event
	end    event.TurnEnded
}

// of returns the events of the given concrete type.
func eventsOf[T event.Event](l *turnLog) []T {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []T
	for _, ev := range l.events {
		if e, ok := ev.(T); ok {
			out = append(out, e)
		}
	}
	return out
}

// runTurn submits prompt and reads events until the main agent's
// TurnEnded, answering approval requests with answer (nil: allow).
func runTurn(t testing.TB, s *Session, prompt string, answer func(*event.ApprovalRequest) event.Answer) *turnLog {
	t.Helper()
	return watchTurn(t, s, prompt, func(ev event.Event) {
		if e, ok := ev.(event.ApprovalRequested); ok {
			if answer == nil {
				e.Request.Answer(event.Answer{Decision: event.Allow})
			} else {
				e.Request.Answer(answer(e.Request))
			}
		}
	})
}

// watchTurn submits prompt and hands every event to watch until the main
// agent's TurnEnded.
func watchTurn(t testing.TB, s *Session, prompt string, watch func(event.Event)) *turnLog {
	t.Helper()
	if err := s.Submit(prompt); err != nil {
		t.Fatalf("Submit: %v", err)
	}
	log := &turnLog{}
	deadline := time.After(testTimeout)
	for {
		select {
		case ev, ok := <-s.Events():
			if !ok {
				t.Fatal("event channel closed before TurnEnded")
			}
			log.mu.Lock()
			log.events = append(log.events, ev)
			log.mu.Unlock()
			watch(ev)
			if e, ok := ev.(event.TurnEnded); ok && e.Agent == event.MainAgent {
				log.end = e
				return log
			}
		case <-deadline:
			t.Fatal("turn did not end")
		}
	}
}

// writeFile creates a file in the workspace.
func writeFile(t testing.TB, dir, name, content string) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// isChild reports whether a request comes from a child: only the main
// agent is offered the task tool.
func isChild(r *llmtest.Request) bool {
	for _, name := range r.ToolNames() {
		if name == child.TaskToolName {
			return false
		}
	}
	return true
}

// toolMessages returns the tool-result contents of a request, in order.
func toolMessages(r *llmtest.Request) []string {
	var out []string
	for _, m := range r.Body.Messages {
		if m.Role == "tool" {
			out = append(out, m.Content)
		}
	}
	return out
}

// contains fails the test unless s contains sub.
func contains(t testing.TB, what, s, sub string) {
	t.Helper()
	if !strings.Contains(s, sub) {
		t.Fatalf("%s: %q does not contain %q", what, s, sub)
	}
}
