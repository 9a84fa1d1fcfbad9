package tools

import (
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// TestMain dispatches the sandbox stages: run_command re-executes the
// test binary to confine each command.
func TestMain(m *testing.M) {
	// This binary starts itself (sandbox stages, servers, baton): built
	// with -race, each such process would sleep a second as it exits.
	if _, set := os.LookupEnv("GORACE"); !set {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	sandbox.Main()
	if os.Getenv(namedTempsEnv) != "" {
		unnamedTemps = false
	}
	if path := os.Getenv(writerEnv); path != "" {
		// This process is the writer a test kills mid-write.
		os.Exit(rewriteForever(path))
	}
	if path := os.Getenv(stuckWriterEnv); path != "" {
		// This process is a writer killed between write and rename.
		os.Exit(writeStuck(path))
	}
	if path := os.Getenv(nextStartEnv); path != "" {
		// This process is the next baton, writing the file once.
		os.Exit(writeOnce(path))
	}
	goleak.VerifyTestMain(m)
}

// testBox is the sandbox of a test's commands: the real defaults for ws.
func testBox(ws *Workspace) sandbox.Policy {
	return sandbox.Settings{Env: map[string]string{"HOME": os.Getenv("HOME"), "TMPDIR": os.Getenv("TMPDIR")}}.Policy(ws.Root())
}
