package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
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
		screen := ansi.Strip(strings.Join(d.m.conv.view(60, 30), "\n"))
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

// TestASCIIWidthMeasuresAsANSIDoes checks the fast measure against the
// full one on styled ASCII lines, and that it gives up on anything else.
func TestASCIIWidthMeasuresAsANSIDoes(t *testing.T) {
	bold := lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#ff8800"))
	for _, line := range []string{"", "plain words", bold.Render("styled") + " and " + bold.Render("more"),
		"\x1b[38;2;1;2;3mtrue colour\x1b[0m", "\x1b[?25l hidden cursor"} {
		w, ok := asciiWidth(line)
		if !ok || w != ansi.StringWidth(line) {
			t.Errorf("asciiWidth(%q) = %d, %v; want %d, true", line, w, ok, ansi.StringWidth(line))
		}
	}
	for _, line := range []string{"● wide mark", "tab\there", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "cut \x1b[38;2"} {
		if _, ok := asciiWidth(line); ok {
			t.Errorf("asciiWidth(%q) measured a line it cannot", line)
		}
	}
	if got := fit(bold.Render("twelve chars"), 6); ansi.StringWidth(got) != 6 || !strings.HasSuffix(ansi.Strip(got), "…") {
		t.Errorf("fit to 6 = %q", got)
	}
}
