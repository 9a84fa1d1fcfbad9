package modelpick

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/overlay/pick"
)

func testModels() []Model {
	return []Model{
		{ID: "gpt-4.1", ContextWindow: 1_047_576, InputPerMillion: 2, OutputPerMillion: 8, PriceKnown: true, Vision: true},
		{ID: "o3", ContextWindow: 200_000, InputPerMillion: 2, OutputPerMillion: 8, PriceKnown: true, Reasoning: true},
		{ID: "local-llama\x1b[31m"},
	}
}

// chosen is the message the picker's choice sends.
type chosen string

// choose runs the picker's Cmd and says what it chose and whether it
// closed.
func choose(p *pick.Picker, cmd tea.Cmd) (string, bool) {
	if cmd == nil {
		return "", false
	}
	msgs := []tea.Msg{cmd()}
	if batch, ok := msgs[0].(tea.BatchMsg); ok {
		msgs = nil
		for _, c := range batch {
			msgs = append(msgs, c())
		}
	}
	got, closed := "", false
	for _, msg := range msgs {
		switch msg := msg.(type) {
		case chosen:
			got = string(msg)
		case overlay.Close:
			closed = msg.Layer == p
		}
	}
	return got, closed
}

func newPicker(styles *themes.Styles) *pick.Picker {
	return New(testModels(), "o3", styles, func(id string) tea.Cmd { return func() tea.Msg { return chosen(id) } })
}

func TestPickerShowsFactsFiltersAndChooses(t *testing.T) {
	styles := themes.New(themes.Dark())
	p := newPicker(&styles)
	view := ansi.Strip(lines(p, 100, 10))
	for _, want := range []string{"Switch model · 3 of 3", "  gpt-4.1  1.0M ctx · $2.00/$8.00 per Mtok · vision",
		"› ● o3  200k ctx · $2.00/$8.00 per Mtok · reasoning", "local-llama", "enter switch"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(lines(p, 100, 10), "[31m") {
		t.Error("an escape in a model id reached the screen")
	}
	for _, line := range strings.Split(lines(p, 30, 10), "\n") {
		if ansi.StringWidth(line) > 30 {
			t.Errorf("line wider than 30: %q", ansi.Strip(line))
		}
	}
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("gpt")})
	if got, done := choose(p, p.Update(tea.KeyMsg{Type: tea.KeyEnter})); got != "gpt-4.1" || !done {
		t.Fatalf("filtered choice %q %v", got, done)
	}
	p = newPicker(&styles)
	p.Update(tea.KeyMsg{Type: tea.KeyDown})
	if got, _ := choose(p, p.Update(tea.KeyMsg{Type: tea.KeyEnter})); got != "local-llama" {
		t.Fatalf("down then enter chose %q", got)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("zzz")})
	if got, done := choose(p, p.Update(tea.KeyMsg{Type: tea.KeyEnter})); got != "" || done {
		t.Errorf("enter with no match chose %q (done %v)", got, done)
	}
	if got, done := choose(p, p.Update(tea.KeyMsg{Type: tea.KeyEsc})); got != "" || !done {
		t.Error("esc did not close")
	}
}

// lines is the picker drawn in height lines of width.
func lines(p *pick.Picker, width, height int) string {
	p.SetSize(width, height)
	return p.View()
}

// A window's size is written the short way.
func TestContextSize(t *testing.T) {
	for n, want := range map[int64]string{1_500_000: "1.5M", 2_000_000: "2M", 8000: "8k", 512: "512"} {
		if got := contextSize(n); got != want {
			t.Errorf("contextSize(%d) = %q, want %q", n, got, want)
		}
	}
}
