package child

import (
	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// Restore rebuilds, from a resumed conversation's events, every child of
// the session (for task_status and follow-ups) and queues the results of
// background children that ended but never reached the main agent, so the
// next turn receives them before anything else. It returns how many
// results it queued.
func (m *Manager) Restore(history []event.Event) int {
	started := map[event.AgentID]event.AgentStarted{}
	background := map[event.AgentID]bool{}
	var finished []event.AgentFinished
	m.mu.Lock()
	for _, ev := range history {
		switch e := ev.(type) {
		case event.AgentStarted:
			started[e.Agent] = e
		case event.AgentBackgrounded:
			background[e.Agent] = true
		case event.AgentFinished:
			finished = append(finished, e)
		case event.ResultDelivered:
			m.outbox.delivered[e.Child] = true
		}
	}
	m.mu.Unlock()
	queued := 0
	for _, fin := range finished {
		meta := fin.Meta
		if meta.Number == 0 { // a transcript from before children had numbers
			n, _ := ordinal(string(fin.Agent))
			meta.Number = int(n)
		}
		c := newChild(m, meta)
		c.started, c.begin = started[fin.Agent], started[fin.Agent].Time
		c.approved, c.background = true, background[fin.Agent]
		res := agent.Result{Text: fin.Text, Status: fin.Status, Reason: fin.Reason, Stats: fin.Stats}
		result := fin.Result
		if result == "" {
			result = formatResult(res, nil, m.opts.Limits.ResultChars)
		}
		c.settle(res, result, nil)
		m.restore(c)
		m.mu.Lock()
		if c.background && !m.outbox.delivered[fin.Agent] {
			m.outbox.queued = append(m.outbox.queued, delivery{meta: meta, status: fin.Status, result: result, usage: fin.Stats.Usage})
			queued++
		}
		m.mu.Unlock()
	}
	return queued
}
