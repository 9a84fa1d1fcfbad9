package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// transcriptOf brings up one running child whose message is Markdown,
// and opens its transcript.
func transcriptOf(t *testing.T, width, height int) *driver {
	t.Helper()
	d := newDriver(t, width, height)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "what is here"})
	d.spawn(explore)
	m := explore.meta(3e9)
	d.emit(
		event.MessageDone{Meta: m, Text: "Reading the files of map the project layout.\n\n**Found** the entry in `cmd/main.go`:\n\n- it parses flags\n- it starts the UI"},
		event.ToolStarted{Meta: m, CallID: "c9", Name: "edit_file", Title: "edit_file cmd/main.go"},
		event.ToolFinished{Meta: m, CallID: "c9", Name: "edit_file", Summary: "1 change", Diff: "--- a/cmd/main.go\n+++ b/cmd/main.go\n@@ -1 +1 @@\n-old\n+new\n"},
		event.AgentMessage{Meta: m, Text: "check the tests too"},
	)
	d.keys("tab", "enter")
	if d.layer() != "transcript" {
		t.Fatalf("enter on the pane did not open its transcript")
	}
	return d
}

// The transcript view is a view of the child's conversation drawn with
// the conversation's own blocks: Markdown rendered, calls by title.
func TestTranscriptDrawsTheConversationModel(t *testing.T) {
	d := transcriptOf(t, 100, 40)
	screen := d.screen()
	for _, want := range []string{"› Prompt for map the project layout.", "● Reading the files", "Found the entry in", "• it parses flags",
		"edit_file cmd/main.go", "you › check the tests too"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "**") {
		t.Errorf("the transcript shows raw Markdown:\n%s", screen)
	}
	// The same model grows live: what the child says next shows at once.
	d.emit(event.TextDelta{Meta: explore.meta(4e9), Text: "Now the tests"})
	if !strings.Contains(d.screen(), "Now the tests") {
		t.Errorf("the transcript does not follow the child:\n%s", d.screen())
	}
	d.checkFits()
}

// TestGoldenTranscript compares the transcript view with testdata at
// three widths; -update rewrites them.
func TestGoldenTranscript(t *testing.T) {
	for _, width := range []int{60, 80, 120} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			d := transcriptOf(t, width, 30)
			d.checkFits()
			golden.RequireEqual(t, []byte(d.screen()+"\n"))
		})
	}
}
