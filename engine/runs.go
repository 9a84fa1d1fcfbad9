package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// register records a live child and its run.
func (d *delegator) register(id event.AgentID, h *childHandle, run *childRun) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.children[id] = h
	d.runs[id] = run
	d.order = append(d.order, run)
}

// unregister forgets a child that ended.
func (d *delegator) unregister(id event.AgentID) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.children, id)
}

// handle returns a live child's handle.
func (d *delegator) handle(id event.AgentID) (*childHandle, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	h, ok := d.children[id]
	if !ok {
		return nil, fmt.Errorf("no running sub-agent %q", id)
	}
	return h, nil
}

// stopAll stops every live child (used when the person stops them all).
func (d *delegator) stopAll() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, h := range d.children {
		h.cancel(errStopped)
	}
}

// run returns a child of the session, live or ended.
func (d *delegator) run(id event.AgentID) (*childRun, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	r, ok := d.runs[id]
	return r, ok
}

// allRuns returns every child of the session in the order requested.
func (d *delegator) allRuns() []*childRun {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]*childRun(nil), d.order...)
}

// foreground keeps the ids of children whose parent's call waited for
// them; a background child's transcript outlives the turn.
func (d *delegator) foreground(ids []event.AgentID) []event.AgentID {
	var out []event.AgentID
	for _, id := range ids {
		if r, ok := d.run(id); !ok || !r.isBackground() {
			out = append(out, id)
		}
	}
	return out
}

// find resolves what a model or person names a child by: its id
// ("explore-3") or its number in the session ("3", "#3"). A transcript
// from before numbers counted the session may hold a number twice: the
// newest child with it wins.
func (d *delegator) find(ref string) (*childRun, error) {
	ref = strings.TrimSpace(ref)
	if r, ok := d.run(event.AgentID(ref)); ok {
		return r, nil
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(ref, "#")); err == nil {
		runs := d.allRuns()
		for i := len(runs) - 1; i >= 0; i-- {
			if runs[i].number == n {
				return runs[i], nil
			}
		}
	}
	return nil, fmt.Errorf("no sub-agent %q in this session; task_status lists them", ref)
}
