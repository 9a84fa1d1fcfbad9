package demo_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sandbox"

	"go.uber.org/goleak"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/demo"
	"github.com/seed-e4e525a6/baton/engine/llm"
)

func TestMain(m *testing.M) {
	// This binary starts itself (sandbox stages, servers, baton): built
	// with -race, each such process would sleep a second as it exits.
	if _, set := os.LookupEnv("GORACE"); !set {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	sandbox.Main() // commands re-execute the test binary as their sandbox
	goleak.VerifyTestMain(m)
}

// testTimeout guards against hangs only; no test asserts on durations.
const testTimeout = 20 * time.Second

// readmeTitle is the first line of the sample project's README.
const readmeTitle = "# Demo App"

// sampleProject writes a small Go project and returns its folder.
func sampleProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":                "module example.com/app\n\ngo 1.22\n",
		"README.md":             readmeTitle + "\n\nA tiny app to try baton on.\n\nTODO: document the flags.\n",
		"cmd/app/main.go":       "package main\n\nimport \"example.com/app/internal/greet\"\n\nfunc main() {\n\tgreet.Hello()\n}\n",
		"internal/greet/hi.go":  "package greet\n\nimport \"fmt\"\n\n// Hello greets.\nfunc Hello() {\n\t// FIXME: take a name\n\tfmt.Println(\"hello\")\n}\n",
		"internal/greet/doc.go": "// Package greet says hello.\npackage greet\n",
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// startDemo starts the demo model with a tiny chunk delay, so the pacing
// path runs without slowing the tests; it closes on cleanup.
func startDemo(t *testing.T) *demo.Server {
	t.Helper()
	srv, err := demo.StartWith(context.Background(), demo.Options{ChunkDelay: time.Microsecond})
	if err != nil {
		t.Fatalf("StartWith: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return srv
}

// newSession starts an engine session against srv on the sample project.
func newSession(t *testing.T, srv *demo.Server, mutate func(*engine.Config)) *engine.Session {
	t.Helper()
	cfg := engine.Config{
		Client:    llm.NewClient(llm.Config{BaseURL: srv.URL, APIKey: "demo"}),
		Model:     demo.Model,
		Workspace: sampleProject(t),
		Mode:      permission.Yolo,
	}
	if mutate != nil {
		mutate(&cfg)
	}
	s, err := engine.NewSession(context.Background(), cfg)
	if err != nil {
		t.Fatalf("NewSession: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// turn is the events of one turn of the main agent.
type turn struct {
	events []event.Event
	end    event.TurnEnded
}

// runTurn submits prompt and reads events until the main agent's
// TurnEnded.
func runTurn(t *testing.T, s *engine.Session, prompt string) *turn {
	t.Helper()
	if err := s.Submit(prompt); err != nil {
		t.Fatalf("Submit: %v", err)
	}
	tr := &turn{}
	deadline := time.After(testTimeout)
	for {
		select {
		case ev, ok := <-s.Events():
			if !ok {
				t.Fatal("event channel closed before TurnEnded")
			}
			tr.events = append(tr.events, ev)
			if e, ok := ev.(event.TurnEnded); ok && e.Agent == event.MainAgent {
				tr.end = e
				return tr
			}
		case <-deadline:
			t.Fatal("turn did not end")
		}
	}
}

// eventsOf returns the events of type T, in order.
func eventsOf[T event.Event](tr *turn) []T {
	var out []T
	for _, ev := range tr.events {
		if e, ok := ev.(T); ok {
			out = append(out, e)
		}
	}
	return out
}

// childTools returns each child's finished tool calls by agent.
func childTools(tr *turn) map[event.AgentID][]event.ToolFinished {
	out := map[event.AgentID][]event.ToolFinished{}
	for _, e := range eventsOf[event.ToolFinished](tr) {
		if e.Agent != event.MainAgent {
			out[e.Agent] = append(out[e.Agent], e)
		}
	}
	return out
}

// mustContain fails unless s contains every one of subs.
func mustContain(t *testing.T, what, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("%s does not mention %q:\n%s", what, sub, s)
		}
	}
}
