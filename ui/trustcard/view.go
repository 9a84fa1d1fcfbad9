package trustcard

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/trust"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// maxCardWidth keeps the card readable on wide terminals.
const maxCardWidth = 100

// chrome is the rows the card needs besides its body: two border rows,
// the title, a blank line and the key help.
const chrome = 5

// View draws the card: title, folder, what the project wants, keys. The
// body scrolls when the terminal is too short to hold it.
func (m Model) View() string {
	if m.done {
		return ""
	}
	inner := m.innerWidth()
	body := m.bodyLines(inner)
	rows := m.rows(len(body))
	end := min(m.scroll+rows, len(body))
	shown := body[m.scroll:end]
	if end < len(body) || m.scroll > 0 {
		hint := fmt.Sprintf("↑/↓ scroll · %d-%d of %d", m.scroll+1, end, len(body))
		shown = append(shown[:len(shown):len(shown)], m.styles.Label.Render(ansi.Truncate(hint, inner, "…")))
	}
	lines := append([]string{m.styles.Title.Render(ansi.Truncate(m.title(), inner, "…"))}, shown...)
	lines = append(lines, "", ansi.Truncate(m.help(), inner, "…"))
	card := m.styles.Frame.Width(inner + 2).Render(strings.Join(lines, "\n"))
	return lipgloss.Place(m.width, m.height, lipgloss.Center, lipgloss.Center, card)
}

// rows is how many body lines fit: the terminal less the card's chrome,
// less one more for the scroll indicator when the body does not fit.
func (m Model) rows(body int) int {
	rows := max(m.height-chrome, 1)
	if body > rows {
		rows = max(rows-1, 1)
	}
	return rows
}

// innerWidth is the text width inside the frame's border and padding.
func (m Model) innerWidth() int {
	return max(min(m.width, maxCardWidth)-4, 10)
}

func (m Model) title() string {
	if len(m.req.Sections) == 0 {
		return "Start baton in this folder?"
	}
	return "Trust this folder's project settings?"
}

// bodyLines is the card's body wrapped to width, cleaned of escapes.
func (m Model) bodyLines(width int) []string {
	var out []string
	add := func(style func(...string) string, indent, text string) {
		wrapped := ansi.Wrap(termtext.Clean(text), width-len(indent), " ,/")
		for _, line := range strings.Split(wrapped, "\n") {
			out = append(out, style(ansi.Truncate(indent+line, width, "…")))
		}
	}
	add(m.styles.Body.Render, "", m.req.Folder)
	if m.req.Warning != "" {
		out = append(out, "")
		add(m.styles.Key.Render, "", m.req.Warning)
	}
	if len(m.req.Sections) > 0 {
		out = append(out, "")
		add(m.styles.Body.Render, "", "Its project files want more than an untrusted folder may have. Until you trust it, baton ignores these:")
	}
	section := func(s trust.Section) {
		out = append(out, "")
		add(m.styles.Label.Render, "", s.Title)
		for _, l := range s.Lines {
			add(m.styles.Body.Render, "  ", l)
		}
	}
	for _, s := range m.req.Sections {
		section(s)
	}
	if len(m.req.Loaded) > 0 {
		out = append(out, "")
		add(m.styles.Body.Render, "", "These load either way; they are prompts, not permissions:")
	}
	for _, s := range m.req.Loaded {
		section(s)
	}
	return out
}

// maxScroll is the last first-row the body can scroll to.
func (m Model) maxScroll() int {
	n := len(m.bodyLines(m.innerWidth()))
	return max(n-m.rows(n), 0)
}

// help lists the answer keys; before the card is armed it says the keys
// are not live yet, so a person who typed ahead sees why nothing happened.
func (m Model) help() string {
	without := m.keys.Without.Help().Desc
	if len(m.req.Sections) == 0 {
		without = "start once without trusting"
	}
	parts := []string{
		m.item(m.keys.Trust, m.keys.Trust.Help().Desc),
		m.item(m.keys.Without, without),
		m.item(m.keys.Quit, m.keys.Quit.Help().Desc),
	}
	if !m.armed {
		return m.styles.Label.Render("reading… keys answer in a moment · ") + m.item(m.keys.Quit, m.keys.Quit.Help().Desc)
	}
	return strings.Join(parts, m.styles.Label.Render(" · "))
}

func (m Model) item(b key.Binding, desc string) string {
	return m.styles.Key.Render(b.Help().Key) + " " + m.styles.Label.Render(desc)
}
