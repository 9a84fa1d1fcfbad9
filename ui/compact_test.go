package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// /compact asks the session, holds the input while the summary is
// written, and leaves a fold line that ctrl+o opens; an automatic one is
// announced inside its turn.
func TestCompactShowsAFoldLine(t *testing.T) {
	d := newDriver(t, 120, 40)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "remember 42"})
	d.emit(event.MessageDone{Meta: mainMeta, Text: "noted"})
	d.emit(event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	d.command("/compact the number")
	d.s.mu.Lock()
	asked := append([]string(nil), d.s.compacts...)
	d.s.mu.Unlock()
	if len(asked) != 1 || asked[0] != "the number" {
		t.Fatalf("asked the session to compact %q", asked)
	}
	d.emit(event.CompactionStarted{Meta: mainMeta, Focus: "the number"})
	if !strings.Contains(d.screen(), "compacting · 0s") {
		t.Fatalf("no working line while compacting:\n%s", d.screen())
	}
	d.typeText("next question")
	d.keys("enter")
	d.emit(event.Compacted{Meta: mainMeta, Focus: "the number", Summary: "The number is 42.\nNothing else.", Replaced: 2})
	screen := d.screen()
	if !strings.Contains(screen, "⊟ compacted: 2 messages replaced by a summary (focus: the number) · ctrl+o shows it") ||
		!strings.Contains(screen, "compacted the conversation") {
		t.Fatalf("no fold line:\n%s", screen)
	}
	d.s.mu.Lock()
	sent := append([]string(nil), d.s.submitted...)
	d.s.mu.Unlock()
	if len(sent) != 1 || sent[0] != "next question" {
		t.Errorf("the prompt queued during compaction: submitted %q", sent)
	}
	d.keys("ctrl+o")
	if !strings.Contains(d.screen(), "The number is 42.") {
		t.Errorf("ctrl+o does not show the summary:\n%s", d.screen())
	}
	d.send(tea.WindowSizeMsg{Width: 60, Height: 20})
	d.checkFits()

	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "again"})
	d.emit(event.CompactionStarted{Meta: mainMeta, Auto: true, Fill: 0.91})
	if !strings.Contains(d.m.status.Text(), "the context is 91% full: compacting the conversation first") {
		t.Errorf("automatic compaction not announced: %q", d.m.status.View())
	}
	d.emit(event.Compacted{Meta: mainMeta, Auto: true, Error: "summarize the conversation: bad request"})
	if !d.m.busy || !strings.Contains(d.m.status.Text(), "compact: summarize the conversation: bad request; the conversation is unchanged") {
		t.Errorf("a failed automatic compaction: busy %v, status %q", d.m.busy, d.m.status.View())
	}
}
