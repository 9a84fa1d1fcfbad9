package ui

import (
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// statusLevel sets the colour of the status line.
type statusLevel int

const (
	statusInfo statusLevel = iota
	statusWarning
	statusError
)

// status is the one-line message above the input: the last notice,
// warning or answer to a command.
type status struct {
	level statusLevel
	text  string
}

// setStatus replaces the status line.
func (m *Model) setStatus(level statusLevel, text string) {
	m.status = status{level: level, text: text}
}

// startupStatus shows the warnings cmd collected before the UI started.
func startupStatus(notices []string) status {
	if len(notices) == 0 {
		return status{}
	}
	return status{level: statusWarning, text: termtext.Clean(strings.Join(notices, " · "))}
}

// statusView draws the status line: the spinner and step while a turn
// runs, then the message.
func (m *Model) statusView() string {
	st := m.styles.Status
	var parts []string
	if m.busy {
		work := "working"
		if m.step.Max > 0 {
			work += fmt.Sprintf(" · step %d/%d", m.step.Step, m.step.Max)
		}
		parts = append(parts, m.spinner.View()+st.Busy.Render(work+" · esc to interrupt"))
	}
	if m.status.text != "" {
		style := st.Info
		switch m.status.level {
		case statusWarning:
			style = st.Warning
		case statusError:
			style = st.Error
		}
		parts = append(parts, style.Render(m.status.text))
	}
	return fit(strings.Join(parts, st.Info.Render(" · ")), m.width)
}
