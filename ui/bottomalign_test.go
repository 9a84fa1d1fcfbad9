package ui

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// A short resumed conversation sits on the input, as in a terminal: the
// empty rows are above it, under the header, not between its last line
// and the prompt box.
func TestShortResumedConversationSitsAboveTheInput(t *testing.T) {
	s := newFakeSession()
	s.history = []event.Event{
		event.TurnStarted{Meta: mainMeta, Prompt: "what is in here?"},
		event.MessageDone{Meta: mainMeta, Text: "A Go module with one command."},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted},
	}
	d := newDriverFor(t, s, Options{Workspace: "/work/app", Theme: "dark"}, 80, 30)
	lines := strings.Split(d.screen(), "\n")
	prompt, answer, box := -1, -1, -1
	for i, line := range lines {
		switch {
		case strings.Contains(line, "what is in here?"):
			prompt = i
		case strings.Contains(line, "A Go module with one command."):
			answer = i
		case strings.HasPrefix(line, "╭"):
			box = i
		}
	}
	if prompt < 0 || answer < 0 || box < 0 {
		t.Fatalf("prompt %d, answer %d, box %d:\n%s", prompt, answer, box, d.screen())
	}
	if gap := box - answer; gap > 2 { // the status line may sit between
		t.Errorf("%d rows between the answer and the input:\n%s", gap-1, d.screen())
	}
	for _, line := range lines[2:prompt] {
		if strings.TrimSpace(line) != "" {
			t.Errorf("the rows above the conversation are not empty:\n%s", d.screen())
			break
		}
	}
	d.checkFits()
}
