package sandbox

import (
	"os"
	"testing"
)

// TestMain dispatches the sandbox stages: Run re-executes the test binary.
func TestMain(m *testing.M) {
	Main()
	os.Exit(m.Run())
}
