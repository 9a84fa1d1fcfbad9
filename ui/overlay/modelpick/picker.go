// Package modelpick is the /model picker: the endpoint's models with what
// the catalogue knows of each (context window, price, vision, reasoning),
// filtered as the person types, chosen with enter. It is a layer drawn
// under the conversation, as a card is.
package modelpick

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Model is one row of the picker: a model the endpoint serves and what
// the catalogue says of it (zero values when it knows nothing).
type Model struct {
	ID               string
	ContextWindow    int64
	InputPerMillion  float64
	OutputPerMillion float64
	PriceKnown       bool
	Vision           bool
	Reasoning        bool
}

// KeyMap is the picker's keys.
type KeyMap struct {
	Up, Down, Choose, Cancel key.Binding
}

// DefaultKeyMap is the picker's standard keys; typing filters.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:     key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up")),
		Down:   key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "switch")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}

// Picker is the open list.
type Picker struct {
	Keys    KeyMap
	models  []Model
	current string
	filter  []rune
	shown   []int // indexes into models matching the filter
	cursor  int   // index into shown
	styles  *themes.Styles
	choose  func(id string) tea.Cmd

	width, height int
}

// New opens a picker over models (their ids cleaned here, once), with
// the cursor on current when it is listed; enter on a model runs choose
// with its id.
func New(models []Model, current string, styles *themes.Styles, choose func(id string) tea.Cmd) *Picker {
	p := &Picker{Keys: DefaultKeyMap(), current: current, styles: styles, choose: choose}
	for _, m := range models {
		m.ID = termtext.Clean(m.ID)
		p.models = append(p.models, m)
	}
	p.refilter()
	for i, idx := range p.shown {
		if p.models[idx].ID == current {
			p.cursor = i
		}
	}
	return p
}

// Place is under the conversation, as a card.
func (p *Picker) Place() overlay.Place { return overlay.Body }

// Route gives the picker every key: letters filter.
func (p *Picker) Route(tea.KeyMsg) overlay.Route { return overlay.Take }

// ShortHelp is the picker's keys.
func (p *Picker) ShortHelp() []key.Binding {
	return []key.Binding{p.Keys.Choose, p.Keys.Up, p.Keys.Down, p.Keys.Cancel}
}

// FullHelp is ShortHelp: the picker has no other keys.
func (p *Picker) FullHelp() []overlay.KeyGroup { return nil }

// SetSize gives the picker the width and the lines it may take.
func (p *Picker) SetSize(width, height int) { p.width, p.height = width, height }

// Update handles a key: esc closes the picker, enter closes it and
// chooses the model under the cursor.
func (p *Picker) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	switch {
	case key.Matches(k, p.Keys.Cancel):
		return overlay.Hide(p)
	case key.Matches(k, p.Keys.Choose):
		if len(p.shown) == 0 {
			return nil
		}
		return tea.Batch(overlay.Hide(p), p.choose(p.models[p.shown[p.cursor]].ID))
	case key.Matches(k, p.Keys.Up):
		p.cursor = max(p.cursor-1, 0)
	case key.Matches(k, p.Keys.Down):
		p.cursor = min(p.cursor+1, max(len(p.shown)-1, 0))
	case k.Type == tea.KeyBackspace && len(p.filter) > 0:
		p.filter = p.filter[:len(p.filter)-1]
		p.refilter()
	case k.Type == tea.KeyRunes: // typed, or a burst or paste of letters
		for _, r := range k.Runes {
			if unicode.IsPrint(r) {
				p.filter = append(p.filter, r)
			}
		}
		p.refilter()
	}
	return nil
}

// refilter lists the models whose id holds the filter, cursor on the first.
func (p *Picker) refilter() {
	q := strings.ToLower(string(p.filter))
	p.shown, p.cursor = p.shown[:0], 0
	for i, m := range p.models {
		if strings.Contains(strings.ToLower(m.ID), q) {
			p.shown = append(p.shown, i)
		}
	}
}

// View draws the picker in at most the lines SetSize gave: a title with
// the filter, the rows around the cursor, and the keys.
func (p *Picker) View() string { return strings.Join(p.lines(p.width, p.height), "\n") }

// lines draws the picker in at most height lines of width.
func (p *Picker) lines(width, height int) []string {
	st := p.styles.Card
	title := st.Title.Render("Switch model") + st.Label.Render(fmt.Sprintf(" · %d of %d · type to filter: ", len(p.shown), len(p.models))) +
		st.Body.Render(termtext.Clean(string(p.filter)))
	keys := st.Key.Render("↑/↓") + st.Label.Render(" move  ") + st.Key.Render("enter") + st.Label.Render(" switch  ") +
		st.Key.Render("esc") + st.Label.Render(" close  ● current")
	rows := max(height-2, 1)
	from := max(0, min(p.cursor-rows/2, len(p.shown)-rows))
	lines := []string{fitLine(title, width)}
	for i := from; i < len(p.shown) && i < from+rows; i++ {
		lines = append(lines, fitLine(p.row(p.models[p.shown[i]], i == p.cursor, width), width))
	}
	if len(p.shown) == 0 {
		lines = append(lines, st.Label.Render("  no model matches"))
	}
	return append(lines, fitLine(keys, width))
}

// row is one model: the cursor, the current mark, the id and its facts.
func (p *Picker) row(m Model, selected bool, width int) string {
	st := p.styles.Completion
	mark := "  "
	if selected {
		mark = "› "
	}
	cur := "  "
	if m.ID == p.current {
		cur = "● "
	}
	name := st.Item.Render(m.ID)
	if selected {
		name = st.Selected.Render(m.ID)
	}
	facts := Facts(m)
	if facts == "" {
		return mark + cur + name
	}
	return mark + cur + name + "  " + st.Desc.Render(facts)
}

// Facts is what the catalogue knows of m, e.g. "128k ctx · $2.00/$8.00
// per Mtok · vision · reasoning"; "" when it knows nothing.
func Facts(m Model) string {
	var parts []string
	if m.ContextWindow > 0 {
		parts = append(parts, contextSize(m.ContextWindow)+" ctx")
	}
	if m.PriceKnown {
		parts = append(parts, fmt.Sprintf("$%.2f/$%.2f per Mtok", m.InputPerMillion, m.OutputPerMillion))
	}
	if m.Vision {
		parts = append(parts, "vision")
	}
	if m.Reasoning {
		parts = append(parts, "reasoning")
	}
	return strings.Join(parts, " · ")
}

// contextSize writes a window the short way: "128k", "1M", "1.5M".
func contextSize(n int64) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1_000_000)
	case n >= 1000:
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}

// fitLine cuts a styled line to width.
func fitLine(s string, width int) string {
	return ansi.Truncate(s, max(width, 0), "…")
}
