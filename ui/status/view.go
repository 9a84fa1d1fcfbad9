package status

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/termtext"
	"github.com/seed-e4e525a6/baton/ui/turnclock"
)

// View draws the line: the spinner, step, time and tokens while the main
// agent works, then the notice. The turn's measurements give way first
// when the line is short, so the notice stays readable.
func (m *Model) View() string {
	ink := m.inks
	text := m.Text()
	if m.notice.retry != nil {
		text = m.notice.retry.Line(m.now)
	}
	var parts []string
	if text != "" {
		style := ink.info
		switch m.notice.level {
		case Warning:
			style = ink.warning
		case Error:
			style = ink.err
		}
		parts = append(parts, style.Paint(text))
	}
	if m.working {
		work := m.word
		if m.step.Max > 0 {
			work += fmt.Sprintf(" · step %d/%d", m.step.Step, m.step.Max)
		}
		room := m.width - termtext.Width(m.frame)
		if text != "" {
			room -= lipgloss.Width(text) + 3
		}
		line := turnclock.Line(work, m.turn.Parts(m.now), "esc to interrupt", room)
		parts = append([]string{m.frame + ink.busy.Paint(line)}, parts...)
	}
	return termtext.Fit(strings.Join(parts, ink.separator), m.width)
}

// inks are the line's styles as sequences, taken once per theme: the
// line is drawn every frame while a turn runs.
type inks struct {
	info, warning, err, busy themes.Ink
	separator                string // " · " in the info style
}

func newInks(st *themes.Styles) inks {
	info := themes.InkOf(st.Status.Info)
	return inks{info: info, warning: themes.InkOf(st.Status.Warning), err: themes.InkOf(st.Status.Error),
		busy: themes.InkOf(st.Status.Busy), separator: info.Paint(" · ")}
}
