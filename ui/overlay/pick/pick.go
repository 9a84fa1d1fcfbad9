// Package pick is the list the pickers share (/model's, /resume's): rows
// filtered as the person types, a cursor moved with the arrows, the row
// that is current marked, enter to choose and esc to close. It is a layer
// drawn under the conversation, as a card is; what a row shows and what
// choosing does are the picker's own.
package pick

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

// KeyMap is a picker's keys; typing filters.
type KeyMap struct {
	Up, Down, Choose, Cancel key.Binding
}

// DefaultKeyMap is a picker's standard keys, enter labelled with what
// choosing does ("switch", "resume").
func DefaultKeyMap(verb string) KeyMap {
	return KeyMap{
		Up:     key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up")),
		Down:   key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", verb)),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}

// Row is one thing to pick. Its text was cleaned where it entered the
// UI.
type Row struct {
	// ID is what choosing the row hands on; the row whose ID is the
	// current one is marked.
	ID string
	// Search is the text the filter looks in, besides the ID.
	Search string
	// Draw draws the row after the cursor and the current mark.
	Draw func(styles *themes.Styles, selected bool) string
}

// Options say what a picker is.
type Options struct {
	// Title heads the list ("Switch model").
	Title string
	// Verb is what enter does ("switch").
	Verb string
	// Current is the ID of the row marked ●, and Marks what the mark
	// means ("current").
	Current, Marks string
	// Noun names a row where none matches ("no model matches").
	Noun string
	// Fixed says the current row cannot be chosen (the session running
	// now): the cursor starts on the first other row. Otherwise it starts
	// on the current row.
	Fixed bool
	// Choose is run with the chosen row's ID.
	Choose func(id string) tea.Cmd
}

// Picker is an open list.
type Picker struct {
	Keys   KeyMap
	opts   Options
	rows   []Row
	filter []rune
	shown  []int // indexes into rows matching the filter
	cursor int   // index into shown
	styles *themes.Styles

	width, height int
}

// New opens a picker over rows drawn with styles. It keeps the styles
// without reading them, so a Cmd may make it.
func New(rows []Row, styles *themes.Styles, opts Options) *Picker {
	p := &Picker{Keys: DefaultKeyMap(opts.Verb), opts: opts, rows: rows, styles: styles}
	p.refilter()
	for i, idx := range p.shown {
		if current := p.rows[idx].ID == opts.Current; current != opts.Fixed {
			p.cursor = i
			break
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

// Title is what the picker heads its list with.
func (p *Picker) Title() string { return p.opts.Title }

// Update handles a key: esc closes the picker, enter closes it and
// chooses the row under the cursor (never a fixed current one).
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
		id := p.rows[p.shown[p.cursor]].ID
		if p.opts.Fixed && id == p.opts.Current {
			return nil
		}
		return tea.Batch(overlay.Hide(p), p.opts.Choose(id))
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

// refilter lists the rows whose ID or search text holds the filter,
// cursor on the first.
func (p *Picker) refilter() {
	q := strings.ToLower(string(p.filter))
	p.shown, p.cursor = p.shown[:0], 0
	for i, r := range p.rows {
		if strings.Contains(strings.ToLower(r.ID), q) || strings.Contains(strings.ToLower(r.Search), q) {
			p.shown = append(p.shown, i)
		}
	}
}

// View draws the picker in at most the lines SetSize gave: a title with
// the filter, the rows around the cursor, and the keys.
func (p *Picker) View() string {
	st := p.styles.Card
	title := st.Title.Render(p.opts.Title) + st.Label.Render(fmt.Sprintf(" · %d of %d · type to filter: ", len(p.shown), len(p.rows))) +
		st.Body.Render(termtext.Clean(string(p.filter)))
	keys := st.Key.Render("↑/↓") + st.Label.Render(" move  ") + st.Key.Render("enter") + st.Label.Render(" "+p.opts.Verb+"  ") +
		st.Key.Render("esc") + st.Label.Render(" close  ● "+p.opts.Marks)
	rows := max(p.height-2, 1)
	from := max(0, min(p.cursor-rows/2, len(p.shown)-rows))
	lines := []string{fit(title, p.width)}
	for i := from; i < len(p.shown) && i < from+rows; i++ {
		lines = append(lines, fit(p.line(p.rows[p.shown[i]], i == p.cursor), p.width))
	}
	if len(p.shown) == 0 {
		lines = append(lines, fit(st.Label.Render("  no "+p.opts.Noun+" matches"), p.width))
	}
	return strings.Join(append(lines, fit(keys, p.width)), "\n")
}

// line is one row: the cursor, the current mark, and what the row draws.
func (p *Picker) line(r Row, selected bool) string {
	mark, cur := "  ", "  "
	if selected {
		mark = "› "
	}
	if r.ID == p.opts.Current {
		cur = "● "
	}
	return mark + cur + r.Draw(p.styles, selected)
}

// fit cuts a styled line to width.
func fit(s string, width int) string {
	return ansi.Truncate(s, max(width, 0), "…")
}
