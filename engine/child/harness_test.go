package child_test

import (
	"context"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child/process"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// The child's behaviour is tested through a real session: the main agent
// delegates against the scripted SSE server, and the child runs on the
// runner -runner names (sessiontest.Runner), local or process.
func TestMain(m *testing.M) {
	// This binary starts itself (sandbox stages, children as baton
	// __child): built with -race, each such process would sleep a second
	// as it exits.
	if _, set := os.LookupEnv("GORACE"); !set {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	sandbox.Main() // commands re-execute the test binary as their sandbox
	process.Main() // and children placed in processes of their own, as baton __child
	goleak.VerifyTestMain(m)
}

// newTestSession starts a session against a scripted server in a fresh
// workspace, its children on the -runner runner. mutate may adjust the
// config before the session starts.
func newTestSession(t testing.TB, respond llmtest.Responder, mutate func(*engine.Config)) (*engine.Session, *llmtest.Server) {
	t.Helper()
	srv := llmtest.NewServer(t, respond)
	cfg := engine.Config{Client: srv.Client(), Endpoint: srv.Endpoint(), Model: "test-model", Workspace: t.TempDir(), Mode: permission.Yolo,
		RetryDelays: []time.Duration{time.Millisecond, time.Millisecond}, Runner: *sessiontest.Runner}
	if mutate != nil {
		mutate(&cfg)
	}
	s, err := engine.NewSession(context.Background(), cfg)
	if err != nil {
		t.Fatalf("NewSession: %v", err)
	}
	t.Cleanup(s.Close)
	return s, srv
}

// recordTo points a session at workspace and records it in dir.
func recordTo(workspace string, dir *transcript.Dir) func(*engine.Config) {
	return func(c *engine.Config) { c.Workspace, c.Transcript = workspace, dir }
}

// withTypes adds agent types to the built-in ones.
func withTypes(types ...agenttypes.Type) func(*engine.Config) {
	return func(c *engine.Config) {
		c.Types = agenttypes.NewRegistry(append(agenttypes.Builtins(), types...)...)
	}
}
