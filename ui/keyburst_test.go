package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/overlay/modelpick"
)

// typeBurst types text the way a terminal delivers it when the keys
// arrive faster than they are read (a fast typist, a slow link, tmux):
// Bubble Tea reports each run of letters as one KeyRunes message and
// each space as a KeySpace.
func (d *driver) typeBurst(text string) {
	d.t.Helper()
	for i, word := range strings.Split(text, " ") {
		if i > 0 {
			d.send(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
		}
		if word != "" {
			d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(word)})
		}
	}
}

// Words that spell a key's name ("enter", "esc", "up", "tab") are text
// when they arrive as one burst: they never send the prompt, interrupt
// the turn or vanish into history and focus keys.
func TestTypedWordsNeverFireKeys(t *testing.T) {
	const text = "please enter the room, press tab, go up or down, hit esc"
	d := newDriver(t, 120, 40)
	d.typeBurst(text)
	if got := d.m.input.Value(); got != text {
		t.Fatalf("the box holds %q, want %q", got, text)
	}
	if p := d.s.prompts(); len(p) != 0 {
		t.Fatalf("typing sent %q", p)
	}
	d.keys("enter")
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: text}, event.StepStarted{Meta: mainMeta, Step: 1, Max: 50})
	d.typeBurst("esc")
	d.s.mu.Lock()
	interrupts := d.s.interrupts
	d.s.mu.Unlock()
	if interrupts != 0 || d.m.input.Value() != "esc" {
		t.Fatalf("typing \"esc\" interrupted %d times; the box holds %q", interrupts, d.m.input.Value())
	}
}

// A space typed into ctrl+r's query is one space, so a query of two
// words finds the prompt holding them.
func TestCtrlRQueryWithSpace(t *testing.T) {
	opts := Options{Workspace: "/work/app", Theme: "dark", History: []string{"go test ./...", "deploy"}}
	d := newDriverFor(t, newFakeSession(), opts, 80, 24)
	d.keys("ctrl+r")
	d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("go")})
	d.send(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
	d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("t")})
	if !strings.Contains(d.screen(), "search history: go t → go test ./...") {
		t.Fatalf("search view:\n%s", d.screen())
	}
}

// The /model picker's filter takes letters that arrived as one burst.
func TestModelPickerFilterTakesBurst(t *testing.T) {
	opts := Options{Workspace: "/work/app", Theme: "dark",
		Models: func() ([]modelpick.Model, bool) {
			return []modelpick.Model{{ID: "o3"}, {ID: "gpt-4.1"}, {ID: "local-llama"}}, true
		}}
	d := newDriverFor(t, newFakeSession(), opts, 80, 24)
	d.command("/model")
	d.typeBurst("llama")
	d.keys("enter")
	if d.m.header.Model() != "local-llama" {
		t.Fatalf("typing llama then enter chose %q:\n%s", d.m.header.Model(), d.screen())
	}
}
