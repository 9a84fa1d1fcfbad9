package input

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// search is ctrl+r's incremental search of the prompt history: each key
// narrows the query, ctrl+r steps to the next older match, enter puts
// the match in the box, esc gives back what the box held.
type search struct {
	query  []rune
	at     int    // index in the history of the shown match; -1 when none
	before string // the box's text when the search began
}

// StartSearch opens the search in the box's place.
func (m *Model) StartSearch() {
	m.search = &search{at: -1, before: m.Value()}
	m.search.find(m.history, len(m.history)-1)
}

// Searching says whether the search is open.
func (m *Model) Searching() bool { return m.search != nil }

// find shows the newest match at or before from.
func (s *search) find(history []string, from int) {
	q := strings.ToLower(string(s.query))
	for i := min(from, len(history)-1); i >= 0; i-- {
		if strings.Contains(strings.ToLower(history[i]), q) {
			s.at = i
			return
		}
	}
	s.at = -1
}

// searchKey edits the query or ends the search.
func (m *Model) searchKey(msg tea.KeyMsg) {
	s, h := m.search, m.history
	switch {
	case key.Matches(msg, m.keys.Search):
		if s.at > 0 {
			s.find(h, s.at-1)
		}
	case key.Matches(msg, m.keys.Confirm):
		if s.at >= 0 {
			m.Set(h[s.at])
			m.browse = s.at
		}
		m.search = nil
	case key.Matches(msg, m.keys.Cancel):
		m.Set(s.before)
		m.search = nil
	case msg.Type == tea.KeyBackspace:
		if len(s.query) > 0 {
			s.query = s.query[:len(s.query)-1]
			s.find(h, len(h)-1)
		}
	case msg.Type == tea.KeyRunes || msg.Type == tea.KeySpace:
		s.query = append(s.query, msg.Runes...) // a space's Runes hold it
		s.find(h, len(h)-1)
	}
}

// searchView is the search box drawn in the box's place: the query and
// the match's first line.
func (m *Model) searchView() string {
	s, st := m.search, m.styles.Input
	match := st.Placeholder.Render("no match")
	if s.at >= 0 {
		first, _, more := strings.Cut(termtext.Clean(m.history[s.at]), "\n")
		if more {
			first += " …"
		}
		match = st.Text.Render(first)
	}
	line := st.Prompt.Render("search history: ") + st.Text.Render(termtext.Clean(string(s.query))) +
		st.Prompt.Render(" → ") + match
	return st.FocusedFrame.Width(max(m.width-2, 1)).Render(termtext.Fit(line, max(m.width-4, 1)))
}
