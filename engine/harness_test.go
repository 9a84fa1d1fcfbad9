package engine

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/child/process"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
	"github.com/seed-e4e525a6/baton/engine/transcript"

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

// runner places the children of every test session (-runner, of
// sessiontest): the suite runs with -runner=process as well as with the
// default, so that every behaviour of a child holds whatever runner
// places it.
var runner = sessiontest.Runner

// testTimeout guards against hangs only; no test asserts on durations.
const testTimeout = sessiontest.Timeout

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

// recordTo points a session at workspace and records it in dir.
func recordTo(workspace string, dir *transcript.Dir) func(*Config) {
	return func(c *Config) { c.Workspace, c.Transcript = workspace, dir }
}

// withTypes adds custom types to the built-ins.
func withTypes(types ...agenttypes.Type) func(*Config) {
	return func(c *Config) {
		c.Types = agenttypes.NewRegistry(append(agenttypes.Builtins(), types...)...)
	}
}

// The engine's tests read as they did before the harness was shared with
// the child's: these are sessiontest's, under the names they use.
type (
	turnLog = sessiontest.Turn
	gate    = sessiontest.Gate
)

func eventsOf[T event.Event](l *turnLog) []T { return sessiontest.Of[T](l) }

var (
	runTurn          = sessiontest.RunTurn
	watchTurn        = sessiontest.WatchTurn
	readTurn         = sessiontest.ReadTurn
	readUntil        = sessiontest.ReadUntil
	mainEnded        = sessiontest.MainEnded
	writeFile        = sessiontest.WriteFile
	gitRepo          = sessiontest.GitRepo
	contains         = sessiontest.Contains
	isChild          = sessiontest.IsChild
	toolMessages     = sessiontest.ToolMessages
	taskCall         = sessiontest.TaskCall
	bgCall           = sessiontest.BackgroundCall
	childByPrompt    = sessiontest.ChildByPrompt
	lastIsUser       = sessiontest.LastIsUser
	hasUser          = sessiontest.HasUser
	delegatingScript = sessiontest.DelegatingScript
	delegateOnce     = sessiontest.DelegateOnce
	newRecorded      = sessiontest.NewRecorded
	newRecordedIn    = sessiontest.NewRecordedIn
	startMCP         = sessiontest.StartMCP
)
