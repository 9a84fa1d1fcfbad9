package ui

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// TestMain fails the suite if any test leaves a goroutine behind. The one
// exception is teatest's own SIGINT watcher, which it starts per test
// model and never stops (a library goroutine, not one of ours).
func TestMain(m *testing.M) {
	sandbox.Main() // a !command re-executes the test binary as its sandbox
	jobProbe()     // a job-control test re-executes it to stop for real
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/charmbracelet/x/exp/teatest.NewTestModel.func2"))
}
