package mcp

import (
	"context"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/mcp/mcptest"
)

// TestMain turns the test binary into a stdio MCP server when a test
// re-executes it with mcptest.ModeEnv set; otherwise it runs the tests
// and checks that no goroutine is left behind.
func TestMain(m *testing.M) {
	// This binary starts itself (sandbox stages, servers, baton): built
	// with -race, each such process would sleep a second as it exits.
	if _, set := os.LookupEnv("GORACE"); !set {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	if mode := os.Getenv(mcptest.ModeEnv); mode != "" {
		mcptest.RunStdio(mode)
	}
	goleak.VerifyTestMain(m)
}

// stdioServer is a server definition that re-executes this test binary
// in mode.
func stdioServer(t *testing.T, name, mode string, env map[string]string) Server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]string{mcptest.ModeEnv: mode}
	for k, v := range env {
		all[k] = v
	}
	return Server{Name: name, Command: exe, Args: []string{"-test.run=^$"}, Env: all, Source: "test"}
}

// startManager starts servers and closes the manager when the test ends.
func startManager(t *testing.T, opts Options, servers ...Server) *Manager {
	t.Helper()
	if opts.Environ == nil {
		opts.Environ = os.Environ()
	}
	if opts.Backoff == nil {
		opts.Backoff = func(int) time.Duration { return 0 }
	}
	m := NewManager(servers, opts)
	m.Start(context.Background())
	t.Cleanup(m.Close)
	return m
}

// waitFor waits (bounded, so a broken manager fails instead of hanging)
// until the named server's status satisfies ok, and returns it.
func waitFor(t *testing.T, m *Manager, name string, ok func(event.MCPServer) bool) event.MCPServer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var got event.MCPServer
	err := m.Wait(ctx, func(all []event.MCPServer) bool {
		for _, s := range all {
			if s.Name == name {
				got = s
				return ok(s)
			}
		}
		return false
	})
	if err != nil {
		t.Fatalf("server %s: %v; last status %+v", name, err, got)
	}
	return got
}

// inState is a waitFor condition.
func inState(state event.MCPState) func(event.MCPServer) bool {
	return func(s event.MCPServer) bool { return s.State == state }
}
