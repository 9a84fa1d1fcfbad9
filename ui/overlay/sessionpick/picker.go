// Package sessionpick is the /resume picker: this folder's recorded
// sessions, most recently active first, each with when it was last
// active, its turns and cost and its first prompt, filtered as the person
// types and chosen with enter. The session running now is marked and
// cannot be chosen.
package sessionpick

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// KeyMap is the picker's keys.
type KeyMap struct {
	Up, Down, Choose, Cancel key.Binding
}

// DefaultKeyMap is the picker's standard keys; typing filters.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:     key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up")),
		Down:   key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "resume")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}

// row is one session as listed: its id and its line's words, cleaned.
type row struct {
	id, when, title, facts string
}

// Picker is the open list, a layer under the conversation.
type Picker struct {
	Keys    KeyMap
	rows    []row
	current string
	filter  []rune
	shown   []int // indexes into rows matching the filter
	cursor  int   // index into shown
	styles  *themes.Styles
	choose  func(id string) tea.Cmd

	width, height int
}

// New opens a picker over sessions (text from the transcripts cleaned
// here, once); current is the running session, marked and not chosen;
// now dates the rows; enter on a session runs choose with its id. It
// keeps the styles without reading them, so a Cmd may make it.
func New(sessions []transcript.Summary, current string, now time.Time, styles *themes.Styles, choose func(id string) tea.Cmd) *Picker {
	p := &Picker{Keys: DefaultKeyMap(), current: current, styles: styles, choose: choose}
	for _, s := range sessions {
		facts := event.Plural(s.Turns, "turn")
		if s.Tokens > 0 {
			facts += " · " + event.Compact(int64(s.Tokens)) + " tok"
		}
		if s.CostKnown && s.Cost > 0 {
			facts += fmt.Sprintf(" · $%.3f", s.Cost)
		}
		title := strings.Join(strings.Fields(termtext.Clean(s.Title)), " ")
		if title == "" {
			title = "(no prompt)"
		}
		p.rows = append(p.rows, row{id: termtext.Clean(s.ID), when: ago(now, s.LastActive), title: title, facts: facts})
	}
	p.refilter()
	for i, idx := range p.shown { // the first that is not the one running
		if p.rows[idx].id != current {
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

// Update handles a key: esc closes the picker, enter closes it and
// chooses the session under the cursor (not the running one).
func (p *Picker) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	switch {
	case key.Matches(k, p.Keys.Cancel):
		return overlay.Hide(p)
	case key.Matches(k, p.Keys.Choose):
		if len(p.shown) == 0 || p.rows[p.shown[p.cursor]].id == p.current {
			return nil
		}
		return tea.Batch(overlay.Hide(p), p.choose(p.rows[p.shown[p.cursor]].id))
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

// refilter lists the sessions whose first prompt or id holds the
// filter, cursor on the first.
func (p *Picker) refilter() {
	q := strings.ToLower(string(p.filter))
	p.shown, p.cursor = p.shown[:0], 0
	for i, r := range p.rows {
		if strings.Contains(strings.ToLower(r.title), q) || strings.Contains(strings.ToLower(r.id), q) {
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
	title := st.Title.Render("Resume a session") + st.Label.Render(fmt.Sprintf(" · %d of %d · type to filter: ", len(p.shown), len(p.rows))) +
		st.Body.Render(termtext.Clean(string(p.filter)))
	keys := st.Key.Render("↑/↓") + st.Label.Render(" move  ") + st.Key.Render("enter") + st.Label.Render(" resume  ") +
		st.Key.Render("esc") + st.Label.Render(" close  ● this session")
	rows := max(height-2, 1)
	from := max(0, min(p.cursor-rows/2, len(p.shown)-rows))
	lines := []string{fitLine(title, width)}
	for i := from; i < len(p.shown) && i < from+rows; i++ {
		lines = append(lines, fitLine(p.line(p.rows[p.shown[i]], i == p.cursor), width))
	}
	if len(p.shown) == 0 {
		lines = append(lines, st.Label.Render("  no session matches"))
	}
	return append(lines, fitLine(keys, width))
}

// line is one session: the cursor, the current mark, when, the first
// prompt and the figures.
func (p *Picker) line(r row, selected bool) string {
	st := p.styles.Completion
	mark, cur := "  ", "  "
	if selected {
		mark = "› "
	}
	if r.id == p.current {
		cur = "● "
	}
	title := st.Item.Render(r.title)
	if selected {
		title = st.Selected.Render(r.title)
	}
	return mark + cur + st.Desc.Render(fmt.Sprintf("%-9s", r.when)) + " " + title + "  " + st.Desc.Render(r.facts)
}

// ago says how long before now t was, the short way: "just now", "5m",
// "3h", "2d"; a date past a week.
func ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	case d < 7*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
	return t.Local().Format("Jan 2")
}

// fitLine cuts a styled line to width.
func fitLine(s string, width int) string {
	return ansi.Truncate(s, max(width, 0), "…")
}
