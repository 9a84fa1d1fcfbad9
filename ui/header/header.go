// Package header is the top line: baton, the demo, permission and agent mode,
// whether commands run sandboxed, the children in the background and the
// approvals waiting, the folder; on the right the model, the tokens, how
// full the context is and the cost; and a rule under it. It keeps what
// it shows of the main agent's turns (the model, usage, context fill)
// from their events.
package header

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Rows is the header's height: its line and the rule.
const Rows = 2

// Options are what the header shows from the start.
type Options struct {
	// Folder is the workspace as the person reads it.
	Folder string
	// Demo marks the offline demo; Mode is the permission mode ("ask",
	// "yolo"); Sandbox the command sandbox's state ("off",
	// "unavailable", "read-only", …).
	Demo          bool
	Mode, Sandbox string
	// Model is the main agent's model and Window its context size in
	// tokens (0: unknown, then WindowOf is asked); WindowOf gives a
	// model's, 0 when unknown (nil: only the first model's is known).
	Model    string
	Window   int64
	WindowOf func(model string) int64
}

// Model is the header.
type Model struct {
	opts   Options
	styles *themes.Styles

	model      string
	window     int64
	used       int  // tokens of the main agent's last request
	inRequest  bool // between StepStarted and MessageDone
	past, turn event.Usage
	cache      key
	lines      []string
	background int // children running in the background, as last drawn
	waiting    int // approvals waiting, as last drawn
	width      int
	// agentMode is the session's mode (shift+tab): shown unless normal,
	// since it changes what runs unasked.
	agentMode event.AgentMode
}

// key is everything the header is drawn from: it is redrawn only when
// one of them changed, not on every frame of a streaming answer.
type key struct {
	width, background, approvals, used int
	window                             int64
	theme, model                       string
	agentMode                          event.AgentMode
	usage                              event.Usage
}

// New makes the header; styles is the UI's, followed when the theme
// changes.
func New(styles *themes.Styles, opts Options) *Model {
	m := &Model{opts: opts, styles: styles, model: opts.Model, window: opts.Window}
	if m.window <= 0 {
		m.window = m.windowOf(m.model)
	}
	return m
}

// Model is the main agent's model now.
func (m *Model) Model() string { return m.model }

// SetModel switches the model the header names; the same history goes
// to the new model, so what it fills stays, and the window is the new
// model's.
func (m *Model) SetModel(name string) {
	if name != m.model {
		m.window = m.windowOf(name)
	}
	m.model = name
}

// SetAgentMode is the mode to show: normal, auto-accept edits or plan.
func (m *Model) SetAgentMode(mode event.AgentMode) { m.agentMode = mode }

// windowOf is a model's context size as the options know it, 0 when
// unknown.
func (m *Model) windowOf(model string) int64 {
	if m.opts.WindowOf == nil {
		return 0
	}
	return max(m.opts.WindowOf(model), 0)
}

// Update takes an event of the main agent: a model request's usage says
// how full the context is, a turn's is added when it ends.
func (m *Model) Update(ev event.Event) {
	switch ev := ev.(type) {
	case event.StepStarted:
		m.inRequest = true
	case event.MessageDone:
		m.inRequest = false
	case event.UsageReported:
		m.turn = ev.Total
		if m.inRequest {
			m.used = ev.Request.PromptTokens + ev.Request.CompletionTokens
		}
	case event.TurnEnded:
		m.inRequest = false
		m.past, m.turn = m.past.Add(ev.Usage), event.Usage{}
	}
}

// Resumed takes a request's usage from a resumed conversation: the last
// one says how full the context is now.
func (m *Model) Resumed(u event.UsageReported) {
	if u.Request.Requests > 0 {
		m.used = u.Request.PromptTokens + u.Request.CompletionTokens
	}
}

// View draws the header at width with the children in the background and
// the approvals waiting: redrawn only when something it shows changed.
// When space is short the folder gives way first, from its start; then
// the left side takes its short form and the stats their narrow
// separators, and only then do the stats go, the least telling first.
func (m *Model) View(width, background, approvals int) []string {
	k := key{width: width, background: background, approvals: approvals, used: m.used, window: m.window,
		theme: m.styles.Palette.Name, model: m.model, agentMode: m.agentMode, usage: m.past.Add(m.turn)}
	if m.lines == nil || m.cache != k {
		m.cache, m.width, m.background, m.waiting = k, width, background, approvals
		m.lines = m.draw()
	}
	return slices.Clone(m.lines)
}

// draw draws the header line and its rule (see View).
func (m *Model) draw() []string {
	st := m.styles.Header
	stats := m.stats()
	left, right := m.left(false), ""
	for _, short := range []bool{false, true} {
		left = m.left(short)
		for n := len(stats); n >= 0; n-- {
			sep := " · "
			if short {
				sep = " "
			}
			right = strings.Join(stats[:n], st.Stats.Render(sep))
			if ansi.StringWidth(left)+ansi.StringWidth(right)+1 <= m.width {
				return m.line(left, right)
			}
			if !short {
				break // the short words go before any stat
			}
		}
	}
	return m.line(left, "")
}

// left is the left side before the folder: the title, the demo and
// permission mode and the approvals waiting; short drops the title and
// a mode other than yolo, and says less about the approvals.
func (m *Model) left(short bool) string {
	st, o := m.styles.Header, m.opts
	sep := st.Stats.Render(" · ")
	left := ""
	if !short {
		left = st.Title.Render("baton") + sep
	}
	if o.Demo {
		left += st.Demo.Render("demo (offline)") + sep
	}
	if o.Mode == "yolo" {
		left += st.Demo.Render("yolo") + sep
	} else if o.Mode != "" && !short { // only yolo is worth its room
		left += st.Stats.Render(termtext.Clean(o.Mode)) + sep
	}
	if m.agentMode != "" && m.agentMode != event.AgentModeNormal {
		left += st.Demo.Render(m.agentMode.Label()) + sep
	}
	switch o.Sandbox {
	case "off":
		left += st.Demo.Render("sandbox off") + sep
	case "unavailable":
		left += st.Demo.Render("no sandbox") + sep
	case "read-only":
		if !short {
			left += st.Stats.Render("read-only") + sep
		}
	}
	if n := m.background; n > 0 {
		left += st.Stats.Render(fmt.Sprintf("%d in background", n)) + sep
	}
	if n := m.waiting; n > 0 && short {
		left += st.Demo.Render(fmt.Sprintf("%d waiting", n)) + sep
	} else if n > 0 {
		left += st.Demo.Render(event.Plural(n, "approval")+" waiting") + sep
	}
	return left
}

// line puts the folder in the room between left and right, cut from its
// start, and the rule under the line.
func (m *Model) line(left, right string) []string {
	st := m.styles.Header
	room := m.width - ansi.StringWidth(left) - ansi.StringWidth(right) - 1
	folder := m.opts.Folder
	if ansi.StringWidth(folder) > room {
		folder = cutFolder(folder, room)
	}
	if folder == "" { // no separator left hanging before the gap
		left = strings.TrimSuffix(left, st.Stats.Render(" · "))
	}
	left += st.Folder.Render(folder)
	gap := max(m.width-ansi.StringWidth(left)-ansi.StringWidth(right), 1)
	return []string{
		termtext.Fit(left+strings.Repeat(" ", gap)+right, m.width),
		st.Rule.Render(strings.Repeat("─", max(m.width, 0))),
	}
}

// cutFolder shortens a folder to at most room columns from its start,
// at a "/" so no name is cut: "…/walk/repo"; "" when not even the last
// name fits.
func cutFolder(folder string, room int) string {
	for i, r := range folder {
		if r == '/' && i > 0 && 1+ansi.StringWidth(folder[i:]) <= room {
			return "…" + folder[i:]
		}
	}
	return ""
}

// stats are the right side of the header, the most telling first.
func (m *Model) stats() []string {
	st := m.styles.Header
	usage := m.past.Add(m.turn)
	parts := []string{st.Model.Render(termtext.Clean(m.model)), st.Stats.Render(event.Compact(int64(usage.TotalTokens)) + " tok")}
	if m.window > 0 && m.used > 0 {
		parts = append(parts, st.Stats.Render(fmt.Sprintf("ctx %d%%", int64(m.used)*100/m.window)))
	}
	if usage.CostKnown && usage.Requests > 0 {
		parts = append(parts, st.Stats.Render(fmt.Sprintf("$%.3f", usage.Cost)))
	}
	return parts
}
