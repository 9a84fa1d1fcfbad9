package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/pane"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// agents holds every child of the session as a pane, in the order the
// children were requested: the live ones fill the agents area, the
// finished ones stay for /subagents. It is a pointer shared by the
// Model's copies.
type agents struct {
	styles *themes.Styles
	all    []*pane.Pane
	byID   map[event.AgentID]*pane.Pane
	top    int   // the first live pane shown when not all fit
	area   int   // lines the agents area takes, set by fitAgents
	sizes  []int // each live pane's lines, or none while only headers fit
}

func newAgents(styles *themes.Styles) *agents {
	return &agents{styles: styles, byID: map[event.AgentID]*pane.Pane{}}
}

// paneFor returns the pane of the agent an event concerns, making one on
// a child's first event; created says it is new. Events of agents that
// are not children (no parent) have no pane. A child's number is the
// engine's (one count for the session); a record without one gets the
// next free place.
func (a *agents) paneFor(meta event.Meta) (p *pane.Pane, created bool) {
	if p, ok := a.byID[meta.Agent]; ok {
		return p, false
	}
	if meta.Parent == "" || meta.Agent == "" || meta.Agent == event.MainAgent {
		return nil, false
	}
	p = pane.New(meta, len(a.all)+1, a.styles)
	// Children may first be heard of out of order (they start in
	// parallel); the engine numbers them in the order requested.
	at := len(a.all)
	for at > 0 && a.all[at-1].Number() > p.Number() {
		at--
	}
	a.all = slices.Insert(a.all, at, p)
	a.byID[meta.Agent] = p
	return p, true
}

// live returns the panes of children that have not ended, in order.
func (a *agents) live() []*pane.Pane {
	var out []*pane.Pane
	for _, p := range a.all {
		if !p.State().Finished() {
			out = append(out, p)
		}
	}
	return out
}

// running says whether any child is live, which keeps the clock going.
func (a *agents) running() bool {
	for _, p := range a.all {
		if !p.State().Finished() {
			return true
		}
	}
	return false
}

// tick moves every live pane's clock and spinner on.
func (a *agents) tick(now time.Time, frame string) {
	for _, p := range a.all {
		if !p.State().Finished() {
			p.SetNow(now)
			p.SetSpinnerFrame(frame)
		}
	}
}

// find resolves what a person types for a child: its ID ("explore-2") or
// its number ("2" or "#2"), which counts the whole session. A transcript
// from before numbers counted the session may hold a number twice: the
// newest child with it wins.
func (a *agents) find(ref string) (*pane.Pane, error) {
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
