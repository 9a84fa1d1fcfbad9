package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
)

func TestFinishedMarkdownWrapsLongWordsWithoutLoss(t *testing.T) {
	url := "https://example.com/" + strings.Repeat("a", 100) + "/end"
	path := "internal/" + strings.Repeat("deep/", 16) + "file.go"
	japanese := strings.Repeat("日本語の長い文章です", 10)
	for _, text := range []string{url, path, japanese} {
		d := newDriver(t, 60, 40)
		d.emit(
			event.TurnStarted{Meta: mainMeta, Prompt: "go"},
			event.TextDelta{Meta: mainMeta, Text: text},
			event.MessageDone{Meta: mainMeta},
			event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted},
		)
		d.checkFits()
		screen := ansi.Strip(strings.Join(d.m.conv.View(60, 30), "\n"))
		if strings.Contains(screen, "…") {
			t.Errorf("finished text was cut:\n%s", screen)
		}
		var joined strings.Builder
		for _, line := range strings.Split(screen, "\n") {
			joined.WriteString(strings.TrimSpace(line))
		}
		if !strings.Contains(joined.String(), text) {
			t.Errorf("finished text lost characters of %q:\n%s", text, screen)
		}
	}
}

func TestFoldedChildResultSaysStatusInWords(t *testing.T) {
	d := newDriver(t, 100, 30)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	d.spawn(explore)
	stats := event.Stats{ToolCalls: 2, Duration: 2e9}
	d.emit(
		event.AgentFinished{Meta: explore.meta(6e9), Status: event.StatusTimedOut, Reason: "timeout", Stats: stats},
		event.ToolFinished{Meta: mainMeta, CallID: "call-" + explore.id, Name: "task", Summary: "timed_out", Output: "partial\n\nstatus: timed_out · 2 tools · 2.0s · 0 tokens"},
	)
	d.keys("ctrl+o")
	screen := d.screen()
	if strings.Contains(screen, "timed_out") || !strings.Contains(screen, "status: timed out · 2 tools") {
		t.Errorf("the folded result shows the raw status:\n%s", screen)
	}
}
