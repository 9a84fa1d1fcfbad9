package config

import (
	"strings"
	"testing"
)

// TestRunnerConfig reads [subagents] runner, and refuses a runner baton
// does not have.
func TestRunnerConfig(t *testing.T) {
	cfg, err := newConfigWorld(t, "[subagents]\nrunner = \"process\"\n", "").load(t, Overrides{}, nil)
	if err != nil || cfg.Runner != "process" {
		t.Fatalf("runner %q (err %v), want process", cfg.Runner, err)
	}
	if _, err := newConfigWorld(t, "[subagents]\nrunner = \"kubernetes\"\n", "").load(t, Overrides{}, nil); err == nil || !strings.Contains(err.Error(), `"local" or "process"`) {
		t.Fatalf("runner = \"kubernetes\" was not refused clearly: %v", err)
	}
}
