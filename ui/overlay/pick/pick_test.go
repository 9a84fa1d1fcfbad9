package pick

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/overlay"
)

// chosen is the message a choice sends.
type chosen string

// outcome runs a picker's Cmd: what it chose, and whether it closed p.
func outcome(p *Picker, cmd tea.Cmd) (string, bool) {
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

func fruit(fixed bool) *Picker {
	styles := themes.New(themes.Dark())
	var rows []Row
	for _, id := range []string{"apple", "banana", "cherry", "damson", "elder"} {
		rows = append(rows, Row{ID: id, Search: "fruit " + strings.ToUpper(id[:1]), Draw: func(_ *themes.Styles, selected bool) string {
			if selected {
				return "[" + id + "]"
			}
			return id
		}})
	}
	return New(rows, &styles, Options{Title: "Pick a fruit", Verb: "eat", Current: "banana", Marks: "ripe", Noun: "fruit", Fixed: fixed,
		Choose: func(id string) tea.Cmd { return func() tea.Msg { return chosen(id) } }})
}

func press(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// The cursor starts on the current row, which may be chosen; the view
// has the title, the count, the marks and the keys, in the lines given.
func TestPickerStartsOnTheCurrentRow(t *testing.T) {
	p := fruit(false)
	p.SetSize(60, 10)
	view := ansi.Strip(p.View())
	for _, want := range []string{"Pick a fruit · 5 of 5 · type to filter:", "    apple", "› ● [banana]", "enter eat", "● ripe"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	if got, closed := outcome(p, p.Update(press("enter"))); got != "banana" || !closed {
		t.Errorf("enter on the current row: chose %q, closed %v", got, closed)
	}
}

// With Fixed the current row is marked but never chosen, and the cursor
// starts on the first other row.
func TestPickerFixedCurrentIsNotChosen(t *testing.T) {
	p := fruit(true)
	if got, _ := outcome(p, p.Update(press("enter"))); got != "apple" {
		t.Fatalf("enter chose %q, want the first row that is not current", got)
	}
	p = fruit(true)
	p.Update(press("down"))
	if got, closed := outcome(p, p.Update(press("enter"))); got != "" || closed {
		t.Errorf("enter on the fixed current row chose %q (closed %v)", got, closed)
	}
}

// Typing filters by ID or search text, backspace widens again, the
// arrows stop at the ends, esc closes without choosing, and a filter
// matching nothing says so and chooses nothing.
func TestPickerFiltersMovesAndCloses(t *testing.T) {
	p := fruit(false)
	p.SetSize(60, 10)
	p.Update(press("rr")) // cherry, by its ID
	if got, _ := outcome(p, p.Update(press("enter"))); got != "cherry" {
		t.Errorf("filter rr chose %q", got)
	}
	p = fruit(false)
	p.SetSize(60, 10)
	p.Update(press("fruit e")) // elder, by its search text
	if view := ansi.Strip(p.View()); !strings.Contains(view, "1 of 5") || !strings.Contains(view, "fruit e") {
		t.Errorf("filtered view:\n%s", view)
	}
	p.Update(press("backspace"))
	p.Update(press("backspace"))
	if view := ansi.Strip(p.View()); !strings.Contains(view, "5 of 5") {
		t.Errorf("backspace did not widen the filter:\n%s", view)
	}
	p.Update(press("up"))
	p.Update(press("up"))
	if got, _ := outcome(p, p.Update(press("enter"))); got != "apple" {
		t.Errorf("up past the top chose %q", got)
	}
	p = fruit(false)
	for range 9 {
		p.Update(press("down"))
	}
	if got, _ := outcome(p, p.Update(press("enter"))); got != "elder" {
		t.Errorf("down past the end chose %q", got)
	}
	p = fruit(false)
	p.SetSize(60, 10)
	p.Update(press("zzz\x07"))
	if view := ansi.Strip(p.View()); !strings.Contains(view, "no fruit matches") || strings.Contains(p.View(), "\x07") {
		t.Errorf("no match:\n%q", view)
	}
	if got, closed := outcome(p, p.Update(press("enter"))); got != "" || closed {
		t.Errorf("enter with no match chose %q (closed %v)", got, closed)
	}
	if got, closed := outcome(p, p.Update(press("esc"))); got != "" || !closed {
		t.Errorf("esc: chose %q, closed %v", got, closed)
	}
}

// The rows shown follow the cursor in a short picker, and no line is
// wider than the picker.
func TestPickerScrollsAndFits(t *testing.T) {
	p := fruit(false)
	p.SetSize(12, 4) // title, two rows, keys
	for range 2 {    // from banana to damson
		p.Update(press("down"))
	}
	lines := strings.Split(p.View(), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines in a picker of 4:\n%s", len(lines), ansi.Strip(p.View()))
	}
	if view := ansi.Strip(p.View()); !strings.Contains(view, "[damson]") || strings.Contains(view, "apple") {
		t.Errorf("the rows shown do not follow the cursor:\n%s", view)
	}
	for _, line := range lines {
		if ansi.StringWidth(line) > 12 {
			t.Errorf("line wider than 12: %q", ansi.Strip(line))
		}
	}
}

// The picker is a body layer that takes every key and says its own.
func TestPickerIsABodyLayer(t *testing.T) {
	p := fruit(false)
	if p.Place() != overlay.Body || p.Route(press("?")) != overlay.Take || p.FullHelp() != nil || p.Update(struct{}{}) != nil || p.Title() != "Pick a fruit" {
		t.Error("the picker is not a body layer taking every key")
	}
	help := p.ShortHelp()
	if len(help) != 4 || help[0].Help().Desc != "eat" {
		t.Errorf("short help %v", help)
	}
}
