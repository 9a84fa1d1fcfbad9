package modelpick

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/themes"
)

func testModels() []Model {
	return []Model{
		{ID: "gpt-4.1", ContextWindow: 1_047_576, InputPerMillion: 2, OutputPerMillion: 8, PriceKnown: true, Vision: true},
		{ID: "o3", ContextWindow: 200_000, InputPerMillion: 2, OutputPerMillion: 8, PriceKnown: true, Reasoning: true},
		{ID: "local-llama\x1b[31m"},
	}
}

// The picker lists each model with what the catalogue knows of it, the
// cursor on the current one, ids cleaned of escapes and lines that fit;
// typing finds a model by id and enter switches to it.
func TestPickerShowsFactsFiltersAndChooses(t *testing.T) {
	styles := themes.New(themes.Dark())
	var chosen []string
	p := New(testModels(), "o3", &styles, func(id string) tea.Cmd {
		return func() tea.Msg { chosen = append(chosen, id); return nil }
	})
	p.SetSize(100, 10)
	view := ansi.Strip(p.View())
	for _, want := range []string{"Switch model · 3 of 3", "    gpt-4.1  1.0M ctx · $2.00/$8.00 per Mtok · vision",
		"› ● o3  200k ctx · $2.00/$8.00 per Mtok · reasoning", "    local-llama\n", "enter switch", "● current"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(p.View(), "[31m") {
		t.Error("an escape in a model id reached the screen")
	}
	p.SetSize(30, 10)
	for _, line := range strings.Split(p.View(), "\n") {
		if ansi.StringWidth(line) > 30 {
			t.Errorf("line wider than 30: %q", ansi.Strip(line))
		}
	}
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("gpt")})
	for _, c := range p.Update(tea.KeyMsg{Type: tea.KeyEnter})().(tea.BatchMsg) {
		c()
	}
	if len(chosen) != 1 || chosen[0] != "gpt-4.1" {
		t.Errorf("chose %q, want gpt-4.1", chosen)
	}
}

// A window's size is written the short way.
func TestContextSize(t *testing.T) {
	for n, want := range map[int64]string{1_500_000: "1.5M", 2_000_000: "2M", 8000: "8k", 512: "512"} {
		if got := contextSize(n); got != want {
			t.Errorf("contextSize(%d) = %q, want %q", n, got, want)
		}
	}
	if Facts(Model{ID: "bare"}) != "" {
		t.Error("a model the catalogue knows nothing of has facts")
	}
}
