package child

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// register keeps a new child's record.
func (m *Manager) register(c *Child) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.children[c.id] = c
	m.order = append(m.order, c)
}

// restore keeps the record of a child read back from a transcript; a later
// child of the same id (never made: ids move past resumed ones) would
// replace it.
func (m *Manager) restore(c *Child) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.children[c.id]; !ok {
		m.order = append(m.order, c)
	}
	m.children[c.id] = c
}

// get returns a child of the session, live or ended.
func (m *Manager) get(id event.AgentID) (*Child, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.children[id]
	return c, ok
}

// all returns every child of the session in the order requested.
func (m *Manager) all() []*Child {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*Child(nil), m.order...)
}

// live returns a child that has not ended.
func (m *Manager) live(id event.AgentID) (*Child, error) {
	c, ok := m.get(id)
	if ok {
		if _, _, done := c.outcome(); !done {
			return c, nil
		}
	}
	return nil, fmt.Errorf("no running sub-agent %q", id)
}

// Stop stops one child: it ends cancelled with its partial text and its
// siblings carry on. "all" stops every child.
func (m *Manager) Stop(id event.AgentID) error {
	if id == "all" {
		for _, c := range m.all() {
			if _, _, done := c.outcome(); !done {
				m.abort(c)
			}
		}
		return nil
	}
	c, err := m.live(id)
	if err != nil {
		return err
	}
	m.abort(c)
	return nil
}

// Send delivers a message from the person into a running child before
// its next model request.
func (m *Manager) Send(id event.AgentID, text string) error {
	c, err := m.live(id)
	if err != nil {
		return err
	}
	if err := c.control(Control{Kind: Steer, Text: text}); err != nil {
		return fmt.Errorf("send to %s: %w", id, err)
	}
	return nil
}

// Foreground keeps the ids of children whose parent's call waited for
// them; a background child's transcript outlives the turn.
func (m *Manager) Foreground(ids []event.AgentID) []event.AgentID {
	var out []event.AgentID
	for _, id := range ids {
		if c, ok := m.get(id); !ok || !c.isBackground() {
			out = append(out, id)
		}
	}
	return out
}

// find resolves what a model or person names a child by: its id
// ("explore-3") or its number in the session ("3", "#3"). A transcript
// from before numbers counted the session may hold a number twice: the
// newest child with it wins.
func (m *Manager) find(ref string) (*Child, error) {
	ref = strings.TrimSpace(ref)
	if c, ok := m.get(event.AgentID(ref)); ok {
		return c, nil
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(ref, "#")); err == nil {
		all := m.all()
		for i := len(all) - 1; i >= 0; i-- {
			if all[i].meta.Number == n {
				return all[i], nil
			}
		}
	}
	return nil, fmt.Errorf("no sub-agent %q in this session; task_status lists them", ref)
}
