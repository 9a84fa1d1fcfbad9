package status

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/seed-e4e525a6/baton/ui/termtext"
	"github.com/seed-e4e525a6/baton/ui/turnclock"
)

// View draws the line: the spinner, step, time and tokens while the main
// agent works, then the notice. The turn's measurements give way first
// when the line is short, so the notice stays readable.
func (m *Model) View() string {
	st := m.styles.Status
	text := m.Text()
	if m.notice.retry != nil {
		text = m.notice.retry.Line(m.now)
	}
	var parts []string
	if text != "" {
		style := st.Info
		switch m.notice.level {
		case Warning:
			style = st.Warning
		case Error:
			style = st.Error
		}
		parts = append(parts, style.Render(text))
	}
	if m.working {
		work := m.word
		if m.step.Max > 0 {
			work += fmt.Sprintf(" · step %d/%d", m.step.Step, m.step.Max)
		}
		room := m.width - lipgloss.Width(m.frame)
		if text != "" {
			room -= lipgloss.Width(text) + 3
		}
		line := turnclock.Line(work, m.turn.Parts(m.now), "esc to interrupt", room)
		parts = append([]string{m.frame + st.Busy.Render(line)}, parts...)
	}
	return termtext.Fit(strings.Join(parts, st.Info.Render(" · ")), m.width)
}
