package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/seed-e4e525a6/baton/engine/event"

	"github.com/seed-e4e525a6/baton/ui/termtext"
	"github.com/seed-e4e525a6/baton/ui/turnclock"
)

// statusLevel sets the colour of the status line.
type statusLevel int

const (
	statusInfo statusLevel = iota
	statusWarning
	statusError
)

// statusEnd is what ends a transient status: once what it describes is
// over, the line would only mislead.
type statusEnd int

const (
	endNever statusEnd = iota
	endTurn            // the running turn ends
	endCard            // the next card appears
	endChild           // the child named with it ends ("all": every child)
	endKey             // the next key other than the one that set it
)

// status is the one-line message above the input: the last notice,
// warning or answer to a command.
type status struct {
	level statusLevel
	text  string
	until statusEnd
	child event.AgentID // for endChild
	// retry, when set, is drawn instead of text: a countdown to the
	// retry, redrawn on every tick of the clock.
	retry *event.Retrying
	// expires, when set, is when the status stops showing (see expiry).
	expires time.Time
}

// setStatus replaces the status line.
func (m *Model) setStatus(level statusLevel, text string) {
	m.status = status{level: level, text: text, expires: m.expiry(level, endNever)}
}

// setTransient replaces the status line until what it describes ends.
func (m *Model) setTransient(level statusLevel, text string, until statusEnd, child event.AgentID) {
	m.status = status{level: level, text: text, until: until, child: child, expires: m.expiry(level, until)}
}

// setRetry counts down to a retry of the main agent's request until its
// reply starts or the turn ends.
func (m *Model) setRetry(ev event.Retrying) {
	ev.Reason = termtext.Clean(ev.Reason)
	m.status = status{level: statusWarning, until: endTurn, retry: &ev}
}

// retryAnswered clears the countdown once the retried request answers.
func (m *Model) retryAnswered() {
	if m.status.retry != nil {
		m.status = status{}
	}
}

// settle clears a transient status that end finishes; child names the
// child that ended, for endChild.
func (m *Model) settle(end statusEnd, child event.AgentID) {
	st := m.status
	if st.until != end {
		return
	}
	if end == endChild && st.child != child && (st.child != "all" || m.agents.running()) {
		return
	}
	m.status = status{}
}

// startupStatus shows the warnings cmd collected before the UI started.
func startupStatus(notices []string) status {
	if len(notices) == 0 {
		return status{}
	}
	return status{level: statusWarning, text: termtext.Clean(strings.Join(notices, " · "))}
}

// statusView draws the status line: the spinner, step, time and tokens
// while a turn runs, then the message. The turn's measurements give way
// first when the line is short, so the message stays readable.
func (m *Model) statusView() string {
	st := m.styles.Status
	text := m.status.text
	if m.status.expired(m.now()) {
		text = ""
	}
	if m.status.retry != nil {
		text = m.status.retry.Line(m.now())
	}
	var parts []string
	if text != "" {
		style := st.Info
		switch m.status.level {
		case statusWarning:
			style = st.Warning
		case statusError:
			style = st.Error
		}
		parts = append(parts, style.Render(text))
	}
	if m.busy {
		work := m.workWord()
		if m.step.Max > 0 {
			work += fmt.Sprintf(" · step %d/%d", m.step.Step, m.step.Max)
		}
		spin := m.spinner.View()
		room := m.width - lipgloss.Width(spin)
		if text != "" {
			room -= lipgloss.Width(text) + 3
		}
		line := turnclock.Line(work, m.turn.Parts(m.now()), "esc to interrupt", room)
		parts = append([]string{spin + st.Busy.Render(line)}, parts...)
	}
	return fit(strings.Join(parts, st.Info.Render(" · ")), m.width)
}
