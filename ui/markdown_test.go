package ui

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// mdAnswer is a Markdown reply whose blocks all close by its end.
const mdAnswer = "Here is the plan:\n\n- read **session.go**\n- swap the map for a `jwt.Signer`\n\n" +
	"```go\nfunc Sign() {}\n```\n\n| step | risk |\n|---|---|\n| sign | low |\n\n## Done\n"

// answerLines is the conversation as drawn at width, tall enough for the
// whole of it: the prompt, then the answer.
func answerLines(t *testing.T, d *driver, width int) string {
	t.Helper()
	lines := d.m.conv.View(width, 200)
	if strings.TrimSpace(lines[0]) != "" {
		t.Fatal("the conversation is taller than the view")
	}
	return strings.Join(lines, "\n")
}

// A streaming mdAnswer draws each block as Markdown once it is finished and
// keeps only the open one raw, and it does not move when it completes.
func TestStreamedAnswerRendersBlocksAndDoesNotJump(t *testing.T) {
	for _, width := range []int{60, 80, 120} {
		d := newDriver(t, width, 50)
		d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "plan it"})
		shown := ""
		for i := 0; i < len(mdAnswer); i += 3 {
			d.emit(event.TextDelta{Meta: mainMeta, Text: mdAnswer[i:min(i+3, len(mdAnswer))]})
			d.checkFits()
			screen := d.screen()
			if strings.Contains(mdAnswer[:i], "```go\n") && (!strings.Contains(screen, "• read session.go") || strings.Contains(screen, "**")) {
				t.Fatalf("%d columns: a finished list is not drawn as Markdown:\n%s", width, screen)
			}
			shown = answerLines(t, d, width)
		}
		if !strings.Contains(shown, "  func Sign() {}") || strings.Contains(shown, "```") || !strings.Contains(shown, "sign │ low") {
			t.Fatalf("%d columns: the closed blocks are not drawn:\n%s", width, shown)
		}
		d.emit(event.MessageDone{Meta: mainMeta, Text: mdAnswer}, event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
		if final := answerLines(t, d, width); final != shown {
			t.Fatalf("%d columns: the answer moved when it completed:\nstreamed\n%s\nfinal\n%s", width, shown, final)
		}
	}
}

// A child's transcript draws the message it streams the same way: its
// finished blocks as Markdown while the child still writes.
func TestTranscriptStreamsMarkdown(t *testing.T) {
	d := threeRunning(t, 100, 40)
	d.keys("tab", "enter")
	d.emit(event.TextDelta{Meta: explore.meta(0), Text: "\n\n- first **finding**\n- second\n\nstill writing `raw\nand on"})
	screen := d.screen()
	if !strings.Contains(screen, "• first finding") || !strings.Contains(screen, "still writing `raw") {
		t.Fatalf("the live message is not drawn block by block:\n%s", screen)
	}
	d.checkFits()
}
