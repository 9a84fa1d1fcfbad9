// Package status is the line above the input: what the main turn is
// doing (the working line, with its time and tokens) and the last
// notice, which ends with what it describes or expires on the clock. It
// is one component so no notice outlives its cause and every part of the
// UI says things the same way.
package status

import (
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/termtext"
	"github.com/seed-e4e525a6/baton/ui/turnclock"
)

// Level sets the colour of a notice.
type Level int

// The levels, from quiet to loud.
const (
	Info Level = iota
	Warning
	Error
)

// End is what ends a transient notice: once what it describes is over,
// the line would only mislead.
type End int

// The ends a notice can wait for.
const (
	Never End = iota
	Turn      // the running turn ends
	Card      // the next card appears
	Child     // the child named with it ends (AllChildren: every child)
	Key       // the next key other than the one that set it
)

// AllChildren names every child as the one a Child notice waits for.
const AllChildren event.AgentID = "all"

// Said is a notice a Cmd brings back once it has run (a session call
// that failed, an answer read in the background); the root shows it as
// Set would.
type Said struct {
	Level Level
	Text  string
}

// notice is the one message the line holds.
type notice struct {
	level Level
	text  string
	until End
	child event.AgentID // for Child
	// retry, when set, is drawn instead of text: a countdown to the
	// retry, redrawn on every tick of the clock.
	retry *event.Retrying
	// expires, when set, is when the notice stops showing.
	expires time.Time
}

// Model is the status line. The root moves its clock on (Tick) and
// hands it the main agent's events; the rest of the UI sets notices.
type Model struct {
	styles *themes.Styles
	inks   inks
	width  int
	now    time.Time // the root's clock, as of the message being handled
	frame  string    // the spinner's current frame

	notice notice

	working bool   // the main agent has the input: a turn or a /compact
	word    string // what it does: "working", "compacting"
	step    event.StepStarted
	turn    turnclock.Clock // the turn's time and tokens
}

// New makes the line; notices are the warnings collected before the UI
// started, shown until something replaces them.
func New(styles *themes.Styles, notices []string) *Model {
	m := &Model{word: "working"}
	if styles != nil {
		m.SetStyles(styles)
	}
	if len(notices) > 0 {
		m.notice = notice{level: Warning, text: termtext.Clean(strings.Join(notices, " · "))}
	}
	return m
}

// SetStyles follows a theme change.
func (m *Model) SetStyles(styles *themes.Styles) {
	m.styles = styles
	m.inks = newInks(styles)
}

// SetSize fits the line to the terminal width.
func (m *Model) SetSize(width int) { m.width = width }

// Tick moves the line on with the root's one clock: the spinner's frame
// and the time notices expire and retries count down against. The root
// calls it before handling each message, so the line never reads a
// stale time.
func (m *Model) Tick(frame string, now time.Time) { m.frame, m.now = frame, now }

// Set replaces the notice; it expires after its level's time.
func (m *Model) Set(level Level, text string) {
	m.notice = notice{level: level, text: text, expires: m.expiry(level, Never)}
}

// SetTransient replaces the notice until what it describes ends.
func (m *Model) SetTransient(level Level, text string, until End, child event.AgentID) {
	m.notice = notice{level: level, text: text, until: until, child: child, expires: m.expiry(level, until)}
}

// Clear drops the notice.
func (m *Model) Clear() { m.notice = notice{} }

// Text is the notice as written (empty once it expired).
func (m *Model) Text() string {
	if m.notice.expired(m.now) {
		return ""
	}
	return m.notice.text
}

// Level is the notice's colour.
func (m *Model) Level() Level { return m.notice.level }

// Settle clears a transient notice that end finishes; Child notices
// settle through ChildEnded.
func (m *Model) Settle(end End) {
	if m.notice.until == end && end != Child {
		m.Clear()
	}
}

// CommandRan drops the notice when the person runs a command, unless it
// describes something still going on (a queued prompt, a stop under way,
// a retry's countdown): an answer to an earlier command would read as
// this one's.
func (m *Model) CommandRan() {
	if n := m.notice; n.until != Turn && n.until != Child {
		m.Clear()
	}
}

// ChildEnded answers a notice that waited for a child: said is what to
// say now that id ended; anyRunning says whether others still run, for a
// notice that waited for every child.
func (m *Model) ChildEnded(id event.AgentID, anyRunning bool, said string) {
	switch n := m.notice; {
	case n.until != Child:
	case n.child == id:
		m.Set(Info, said)
	case n.child == AllChildren && !anyRunning:
		m.Set(Info, "every sub-agent stopped")
	}
}
