package sandbox

import (
	"os"
	"syscall"
	"testing"
)

// TestMain dispatches the sandbox stages: Run re-executes the test binary.
// Started with probeClientArg, the binary is instead the attacker's
// client a sandboxed command runs (see probeClient).
func TestMain(m *testing.M) {
	// This binary starts itself (sandbox stages, servers, baton): built
	// with -race, each such process would sleep a second as it exits.
	if _, set := os.LookupEnv("GORACE"); !set {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	if len(os.Args) >= 3 && os.Args[1] == probeClientArg {
		// The probe runs inside the sandbox, where a coverage build could
		// not write its counters and would say so in the probe's output:
		// it ends without the exit hooks (its output is unbuffered).
		syscall.Exit(probeClient(os.Args[2], os.Args[3:]))
	}
	Main()
	os.Exit(m.Run())
}

// probeClientArg starts the test binary as probeClient.
const probeClientArg = "__baton_test_client"
