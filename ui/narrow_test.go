package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// At 60 columns a delegation card's answers wrap inside the card, so
// "Y approve all" is never lost, and the footer repeats none of them.
func TestNarrowCardKeepsEveryAnswer(t *testing.T) {
	d := newDriver(t, 60, 30)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	d.delegate(explore)
	d.delegate(review)
	d.delegate(finder)
	screen := d.screen()
	for _, want := range []string{"y approve", "n deny", "a always for Explore", "e edit prompt", "Y approve all 3"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the card at 60 columns lacks %q:\n%s", want, screen)
		}
	}
	lines := strings.Split(screen, "\n")
	if footer := lines[len(lines)-1]; strings.Contains(footer, "…") || strings.Contains(footer, "approve") {
		t.Errorf("the footer is cut or repeats the card: %q", footer)
	}
	d.checkFits()
}

// A tool card's long "always" choice wraps under its key instead of
// losing its end.
func TestNarrowToolCardWrapsLongRules(t *testing.T) {
	d := newDriver(t, 60, 30)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	req := &event.ApprovalRequest{ID: "p1", Kind: event.ApproveTool, Tool: "run_command", Preview: "go test ./...",
		Always:      []string{"run_command(go test:*)", "run_command(go vet:*)", "run_command(staticcheck:*)"},
		AlwaysLabel: `"go test …", "go vet …", "staticcheck …"`}
	newRequest(t, req)
	d.emit(event.ApprovalRequested{Meta: mainMeta, Request: req})
	screen := stripped(d.screen())
	for _, want := range []string{"a always allow", `"go test …"`, `"go vet …"`, `"staticcheck …"`, "esc deny & stop turn"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the card at 60 columns lacks %q:\n%s", want, screen)
		}
	}
	d.checkFits()
}

// ? and /help group the keys by where they apply.
func TestHelpGroupsKeysByPlace(t *testing.T) {
	d := newDriver(t, 100, 30)
	d.keys("?")
	footer := stripped(strings.Join(d.m.footerView(), "\n"))
	for _, want := range []string{"input", "conversation", "anywhere", "enter send", "pgup scroll up", "ctrl+c quit"} {
		if !strings.Contains(strings.Join(strings.Fields(footer), " "), want) {
			t.Errorf("? lacks %q:\n%s", want, footer)
		}
	}
	d = newDriver(t, 100, 90)
	d.command("/help")
	screen := stripped(d.screen())
	for _, want := range []string{"Keys in the input:", "Keys on a card:", "Keys on a sub-agent's pane (tab to reach it):", "Keys in a transcript (enter on a pane):", "Keys anywhere:"} {
		if !strings.Contains(screen, want) {
			t.Errorf("/help lacks %q:\n%s", want, screen)
		}
	}

	d = newDriver(t, 100, 30)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	d.delegate(explore)
	d.keys("?")
	footer = stripped(strings.Join(d.m.footerView(), "\n"))
	if !strings.Contains(footer, "card") || !strings.Contains(footer, "approve") || strings.Contains(footer, "conversation") {
		t.Errorf("? on a card shows:\n%s", footer)
	}
}

// A child's tool card at 60 columns wraps its title, so the question it
// asks is never cut.
func TestNarrowCardWrapsItsTitle(t *testing.T) {
	d := newDriver(t, 60, 30)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	gp := kid{"general-purpose-4", "General-purpose", "propose the change to the flags"}
	d.spawn(gp)
	req := &event.ApprovalRequest{ID: "p1", Kind: event.ApproveTool, Tool: "write_file", Preview: "+# notes"}
	newRequest(t, req)
	d.emit(event.ApprovalRequested{Meta: gp.meta(time.Second), Request: req})
	if screen := stripped(d.screen()); !strings.Contains(strings.Join(strings.Fields(screen), " "), "asks: Allow write_file?") {
		t.Errorf("the card's question is cut at 60 columns:\n%s", screen)
	}
	d.checkFits()
}
