package agents

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// sent is what the message's send function returns.
type sent string

// results runs a Cmd and what it batches, and returns their messages.
func results(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range batch {
			out = append(out, results(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

func press(k string) tea.KeyMsg {
	switch k {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// The message line sends what was typed and closes; an empty one says
// so and stays; esc closes it and sends nothing.
func TestMessage(t *testing.T) {
	styles := themes.New(themes.Dark())
	said := status.New(&styles, nil)
	m := NewMessage("#2 review-2", input.DefaultKeyMap(), &styles, said, func(text string) tea.Cmd {
		return func() tea.Msg { return sent(text) }
	})
	m.SetSize(60, overlay.InputRows)
	if m.Place() != overlay.Input || m.Route(press("?")) != overlay.Take {
		t.Error("the line is not in the input's place, or lets a key go")
	}
	if got := results(m.Update(press("enter"))); len(got) != 0 || !strings.Contains(said.Text(), "type something to send") {
		t.Errorf("enter on an empty line: %v, status %q", got, said.Text())
	}
	for _, r := range "look at auth.go" {
		m.Update(press(string(r)))
	}
	view := ansi.Strip(m.View())
	if !strings.Contains(view, "message to #2 review-2 › look at auth.go") || strings.Count(view, "\n") != overlay.InputRows-1 {
		t.Errorf("the line shows:\n%s", view)
	}
	got := results(m.Update(press("enter")))
	if len(got) != 2 || got[0] != (overlay.Close{Layer: m}) || got[1] != sent("look at auth.go") {
		t.Errorf("enter: %v", got)
	}
	if got := results(m.Update(press("esc"))); len(got) != 1 || got[0] != (overlay.Close{Layer: m}) {
		t.Errorf("esc: %v", got)
	}
	if keys := m.ShortHelp(); len(keys) != 2 || keys[0].Help().Desc != "send" || m.FullHelp() != nil {
		t.Errorf("help: %v", keys)
	}
}
