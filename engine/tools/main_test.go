package tools

import (
	"os"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// TestMain dispatches the sandbox stages: run_command re-executes the
// test binary to confine each command.
func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}

// testBox is the sandbox of a test's commands: the real defaults for ws.
func testBox(ws *Workspace) sandbox.Policy {
	return sandbox.Settings{Env: map[string]string{"HOME": os.Getenv("HOME"), "TMPDIR": os.Getenv("TMPDIR")}}.Policy(ws.Root())
}
