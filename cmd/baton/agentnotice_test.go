package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/config"
)

// Broken agent files make one status line that points to /agents, not a
// warning each; a headless run, without /agents, still prints each.
func TestAgentFileWarningsAreCounted(t *testing.T) {
	ws := t.TempDir()
	dir := filepath.Join(ws, ".claude", "agents")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"broken.md": "---\nname: [unclosed\n---\nbody",
		"also.md":   "---\nname: {oops\n---\nbody",
		"good.md":   "---\nname: good\ndescription: fine\n---\nDo the job.",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	types := agenttypes.Load(agenttypes.LoadOptions{ProjectDir: ws, HomeDir: t.TempDir()})
	if len(types.Warnings()) < 2 {
		t.Fatalf("the fixture gives warnings %v", types.Warnings())
	}
	tui := newSessionSetup(config.Config{Model: "m"}, config.Endpoint{}, types, ws, map[string]string{}, false)
	if !slices.Contains(tui.notices, "2 agent files skipped — /agents") {
		t.Errorf("TUI notices %q", tui.notices)
	}
	if len(tui.typeWarnings) != len(types.Warnings()) {
		t.Errorf("/agents gets %d warnings, want all %d", len(tui.typeWarnings), len(types.Warnings()))
	}
	headless := newSessionSetup(config.Config{Model: "m"}, config.Endpoint{}, types, ws, map[string]string{}, true)
	if n := strings.Count(strings.Join(headless.notices, "\n"), ".md"); n < 2 {
		t.Errorf("headless notices %q, want each warning", headless.notices)
	}
	warned := agentFilesNotice([]agenttypes.Warning{{File: "/a.md"}, {File: "/a.md"}, {File: "/b.md"}}, []agenttypes.Type{{Source: "/b.md"}})
	if warned != "1 agent file skipped, 1 agent file with warnings — /agents" {
		t.Errorf("mixed: %q", warned)
	}
}
