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

// Picker is the open list.
type Picker struct {
	Keys    KeyMap
	rows    []row
	current string
	filter  []rune
	shown   []int // indexes into rows matching the filter
	cursor  int   // index into shown
	styles  *themes.Styles
}

// New opens a picker over sessions (text from the transcripts cleaned
// here, once); current is the running session, marked and not chosen;
// now dates the rows.
func New(sessions []transcript.Summary, current string, now time.Time, styles *themes.Styles) *Picker {
	p := &Picker{Keys: DefaultKeyMap(), current: current, styles: styles}
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

// Update handles a key. It returns the chosen session's id when enter
// picks one, and done when the picker closes (chosen, or esc).
func (p *Picker) Update(msg tea.KeyMsg) (chosen string, done bool) {
	switch {
	case key.Matches(msg, p.Keys.Cancel):
		return "", true
	case key.Matches(msg, p.Keys.Choose):
		if len(p.shown) == 0 || p.rows[p.shown[p.cursor]].id == p.current {
			return "", false
		}
		return p.rows[p.shown[p.cursor]].id, true
	case key.Matches(msg, p.Keys.Up):
		p.cursor = max(p.cursor-1, 0)
	case key.Matches(msg, p.Keys.Down):
		p.cursor = min(p.cursor+1, max(len(p.shown)-1, 0))
	case msg.Type == tea.KeyBackspace && len(p.filter) > 0:
		p.filter = p.filter[:len(p.filter)-1]
		p.refilter()
	case msg.Type == tea.KeyRunes: // typed, or a burst or paste of letters
		for _, r := range msg.Runes {
			if unicode.IsPrint(r) {
				p.filter = append(p.filter, r)
			}
		}
		p.refilter()
	}
	return "", false
}

// HelpKeys are the picker's keys, for the footer.
func (p *Picker) HelpKeys() []key.Binding {
	return []key.Binding{p.Keys.Choose, p.Keys.Up, p.Keys.Down, p.Keys.Cancel}
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

// View draws the picker in at most height lines of width: a title with
// the filter, the rows around the cursor, and the keys.
func (p *Picker) View(width, height int) []string {
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
