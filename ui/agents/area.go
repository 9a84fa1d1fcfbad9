// Package agents is the agents area: every child of the session as a
// pane, the live ones laid out above the status line, the focus that
// moves between them, and what a person does with the focused one (stop
// it, send it a message, read its transcript, review its change, let it
// run in the background). The root hands it the children's events and
// its room; it never draws a pane to measure it.
package agents

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/pane"
	"github.com/seed-e4e525a6/baton/ui/status"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Session is what the area asks of the engine; every call runs in a Cmd.
// A session that also reviews changes (review.Reviewer) opens reviews.
type Session interface {
	StopAgent(id event.AgentID) error // "all" stops every child
	// WindDownAgent asks a running child to report in one last step
	// without tools; asked again it aborts the child (aborted says so).
	WindDownAgent(id event.AgentID) (aborted bool, err error)
	SendToAgent(id event.AgentID, text string) error
	Background(id event.AgentID) error
	ContinueAgent(id event.AgentID, prompt string) error
	// ResumeAgent continues a child that ended before it finished, from
	// its transcript; RetryAgent starts its task afresh.
	ResumeAgent(id event.AgentID) error
	RetryAgent(id event.AgentID) error
}

// Config is what the area is made with.
type Config struct {
	Keys KeyMap
	// Transcript are the keys of an open transcript, and Line those of
	// the message line.
	Transcript overlay.TranscriptKeys
	Line       input.KeyMap
	Styles     *themes.Styles
	Session    Session
	// Status is where the area says what it did; Layers is where it
	// opens a transcript, a message line or a review.
	Status *status.Model
	Layers *overlay.Stack
	// Draw is how the conversation draws an entry, so a transcript looks
	// like it; Expanded says whether its output is expanded now.
	Draw     overlay.Draw
	Expanded func() bool
	// After is the clock of the keys' guard: tea.Tick in the program,
	// driven by hand in tests.
	After func(d time.Duration, msg tea.Msg) tea.Cmd
}

// Area holds every child of the session as a pane, in the order the
// children were requested: the live ones fill the area, the finished
// ones stay for /subagents. It is a pointer shared by the root's copies.
type Area struct {
	cfg   Config
	all   []*pane.Pane
	byID  map[event.AgentID]*pane.Pane
	focus event.AgentID // the focused pane's child; "" is the input
	guard guard         // the focused pane's keys arm after a quiet period

	width  int
	top    int   // the first live pane shown when not all fit
	height int   // lines the area takes, set by Fit
	sizes  []int // each live pane's lines, or none while only headers fit

	// ruleFor and ruleLine are the rule over the panes as last drawn and
	// the count, width and theme it was drawn for: it is the same frame
	// after frame, and its box drawing is measured rune by rune.
	ruleFor  ruleKey
	ruleLine string
}

// ruleKey is what the rule over the panes depends on. The styles are
// changed in place when the theme is, so the theme is known by its name.
type ruleKey struct {
	n, width int
	theme    string
}

// New makes an empty area.
func New(cfg Config) *Area {
	return &Area{cfg: cfg, byID: map[event.AgentID]*pane.Pane{}}
}

// Apply gives a child's event to its pane, making the pane on the
// child's first event (created says so); events of agents that are not
// children (no parent) have no pane and give nil. now and frame are the
// root's clock and spinner frame. A child's number is the engine's (one
// count for the session); a record without one gets the next free place.
func (a *Area) Apply(ev event.Event, now time.Time, frame string) (p *pane.Pane, created bool) {
	meta := ev.EventMeta()
	p, ok := a.byID[meta.Agent]
	if !ok {
		if meta.Parent == "" || meta.Agent == "" || meta.Agent == event.MainAgent {
			return nil, false
		}
		p, created = pane.New(meta, len(a.all)+1, a.cfg.Styles), true
		// Children may first be heard of out of order (they start in
		// parallel); the engine numbers them in the order requested.
		at := len(a.all)
		for at > 0 && a.all[at-1].Number() > p.Number() {
			at--
		}
		a.all = slices.Insert(a.all, at, p)
		a.byID[meta.Agent] = p
		p.SetSpinnerFrame(frame)
	}
	p.SetNow(now)
	p.Apply(ev)
	return p, created
}

// Pane is the child of id's pane, if it has one.
func (a *Area) Pane(id event.AgentID) (*pane.Pane, bool) {
	p, ok := a.byID[id]
	return p, ok
}

// All is every child's pane, in the order requested.
func (a *Area) All() []*pane.Pane { return a.all }

// Live is the panes of children that have not ended, in order.
func (a *Area) Live() []*pane.Pane {
	var out []*pane.Pane
	for _, p := range a.all {
		if p.Live() {
			out = append(out, p)
		}
	}
	return out
}

// Running says whether any child is live, which keeps the clock going.
func (a *Area) Running() bool {
	for _, p := range a.all {
		if p.Live() {
			return true
		}
	}
	return false
}

// Reviewable are the folded children whose change waits for review; the
// focus visits them after the live panes.
func (a *Area) Reviewable() []*pane.Pane {
	var out []*pane.Pane
	for _, p := range a.all {
		if !p.Live() && p.PendingReview() {
			out = append(out, p)
		}
	}
	return out
}

// InBackground counts the children running in the background.
func (a *Area) InBackground() int {
	n := 0
	for _, p := range a.all {
		if p.Background() && p.Live() {
			n++
		}
	}
	return n
}

// Tick moves every live pane's clock and spinner on.
func (a *Area) Tick(now time.Time, frame string) {
	for _, p := range a.all {
		if p.Live() {
			p.SetNow(now)
			p.SetSpinnerFrame(frame)
		}
	}
}

// Find resolves what a person types for a child: its ID ("explore-2") or
// its number ("2" or "#2"), which counts the whole session. A transcript
// from before numbers counted the session may hold a number twice: the
// newest child with it wins.
func (a *Area) Find(ref string) (*pane.Pane, error) {
	ref = strings.TrimSpace(ref)
	if p, ok := a.byID[event.AgentID(ref)]; ok {
		return p, nil
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(ref, "#")); err == nil {
		for i := len(a.all) - 1; i >= 0; i-- {
			if a.all[i].Number() == n {
				return a.all[i], nil
			}
		}
		if len(a.all) > 0 {
			return nil, fmt.Errorf("no sub-agent #%d in this session; /subagents list shows the ids and numbers", n)
		}
	}
	if len(a.all) == 0 {
		return nil, fmt.Errorf("no sub-agent %q: none has run in this session", termtext.Clean(ref))
	}
	return nil, fmt.Errorf("no sub-agent %q; /subagents list shows the ids and numbers", termtext.Clean(ref))
}

// Name names a child for the person: "#2 explore-2".
func Name(p *pane.Pane) string {
	return fmt.Sprintf("#%d %s", p.Number(), termtext.Clean(string(p.ID())))
}
