package agenttypes

import (
	"slices"
	"testing"
)

// TestWithheldNoteSaysHowToGrant: the note and the card's brief name the
// tools baton withheld, OpenCode's permission key for each, and the file
// to grant them in; nothing withheld, no note.
func TestWithheldNoteSaysHowToGrant(t *testing.T) {
	if WithheldNote(nil, "x.md") != "" || WithheldBrief(nil, "x.md") != "" {
		t.Fatal("a note for nothing withheld")
	}
	withheld := []string{"web_fetch", "run_command"}
	note := WithheldNote(withheld, ".opencode/agent/review.md")
	want := "web_fetch run_command withheld: OpenCode gives every agent webfetch bash by default; baton gives it to a sub-agent only when its file asks: " +
		"add webfetch: allow, bash: allow under permission: in .opencode/agent/review.md"
	if note != want {
		t.Fatalf("note\n%q\nwant\n%q", note, want)
	}
	brief := WithheldBrief(withheld, ".opencode/agent/review.md")
	if want := "web_fetch run_command (OpenCode's default; to grant: webfetch: allow, bash: allow under permission: in review.md)"; brief != want {
		t.Fatalf("brief\n%q\nwant\n%q", brief, want)
	}
}

// TestSmallAccessors: an ACP agent's env names come sorted and without
// values; Rules is zero only with no rule at all; a tool kind is read-only
// exactly when it changes nothing.
func TestSmallAccessors(t *testing.T) {
	a := &ACPAgent{Command: "gemini", Args: []string{"--acp"}, Env: map[string]string{"Z_KEY": "secret", "A_HOME": "/h"}}
	if names := a.EnvNames(); !slices.Equal(names, []string{"A_HOME", "Z_KEY"}) {
		t.Fatalf("env names %v", names)
	}
	if !(Rules{}).IsZero() || (Rules{Ask: []string{"run_command"}}).IsZero() {
		t.Fatal("Rules.IsZero")
	}
	for kind, readOnly := range map[ToolKind]bool{Reads: true, Consults: true, Converses: true, Writes: false, Runs: false, Fetches: false, Delegates: false} {
		if kind.ReadOnly() != readOnly {
			t.Errorf("kind %d read-only %v", kind, kind.ReadOnly())
		}
	}
}
