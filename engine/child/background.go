package child

import (
	"fmt"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// outbox holds what background children leave for the main agent: their
// results until it has them. Its fields are guarded by the Manager's mu.
type outbox struct {
	// queueMu orders a result's ResultQueued before its ResultDelivered
	// on the channel: it is held from queueing to the event, and while a
	// result is taken and delivered. Taken before mu, never under it.
	queueMu sync.Mutex
	// queued are results waiting for the main agent, live the
	// background children still running, delivered the children whose
	// result the main agent has, and owed the usage of results task_wait
	// took, counted with the main agent's next request.
	queued    []delivery
	live      map[event.AgentID]*Child
	delivered map[event.AgentID]bool
	owed      event.Usage
	// sent counts the task calls that sent a child to the background
	// since the person's last prompt, bounded by
	// Limits.BackgroundPerPrompt.
	sent int
}

// delivery is a background child's result waiting for the main agent.
type delivery struct {
	meta   event.Meta
	status event.Status
	result string
	usage  event.Usage
	// waits says the person was told it waits for their next prompt.
	waits bool
}

// NewPrompt renews, for a prompt of the person, how many children the
// main agent may send to the background.
func (m *Manager) NewPrompt() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.outbox.sent = 0
}

// claimBackground counts a task call that asks for the background, or
// refuses it once the calls since the person's last prompt reached the
// bound: results that start tasks whose results start tasks end there.
func (m *Manager) claimBackground() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if limit := m.opts.Limits.BackgroundPerPrompt; m.outbox.sent >= limit {
		return fmt.Errorf("background: %d sub-agents were sent to the background since the person's last prompt, "+
			"the most allowed ([limits] background_per_prompt); use %s for the ones running, run this task without background, "+
			"or leave it to the person", limit, TaskWaitToolName)
	}
	m.outbox.sent++
	return nil
}

// InOrder runs fn holding the lock that orders the results' events on
// the session's channel: a result that ends meanwhile is announced,
// delivered or wakes a turn only after what fn sends.
func (m *Manager) InOrder(fn func()) {
	m.outbox.queueMu.Lock()
	defer m.outbox.queueMu.Unlock()
	fn()
}

// Hold marks the waiting results as waiting for the person's next
// prompt and returns the children of those not marked before. The
// session calls it, in order (InOrder), when the wake turns of a prompt
// are spent.
func (m *Manager) Hold() []event.AgentID {
	m.mu.Lock()
	defer m.mu.Unlock()
	var held []event.AgentID
	for i := range m.outbox.queued {
		if d := &m.outbox.queued[i]; !d.waits {
			d.waits = true
			held = append(held, d.meta.Agent)
		}
	}
	return held
}

// Background sends a running child of the main agent to the background:
// the task call waiting for it returns at once with its id, and its result
// is delivered when it ends. It is the b key on a pane.
func (m *Manager) Background(id event.AgentID) error {
	c, ok := m.get(id)
	if !ok {
		return fmt.Errorf("no sub-agent %q", id)
	}
	if c.meta.Parent != event.MainAgent {
		return fmt.Errorf("send %s to the background: only the main agent's sub-agents can run in the background", id)
	}
	return m.detach(c, "person")
}

// detach lets go of a child: its parent's call returns, it runs on, and
// its result is delivered later.
func (m *Manager) detach(c *Child, by string) error {
	m.mu.Lock()
	err := c.markBackground()
	if err == nil {
		m.outbox.live[c.id] = c
	}
	m.mu.Unlock()
	if err != nil {
		return fmt.Errorf("send %s to the background: %w", c.id, err)
	}
	m.sess.Emit(event.AgentBackgrounded{Meta: c.stamp(), By: by})
	return nil
}

// settle records a child's outcome and, for a background child, queues
// its result and says so: a running turn takes it before its next
// request; otherwise the session may start a turn of its own for it.
func (m *Manager) settle(c *Child, end Ending, result string) {
	m.outbox.queueMu.Lock()
	waits := m.sess.Waits()
	m.mu.Lock()
	background := c.settle(end.Result, result, end.History)
	if background {
		delete(m.outbox.live, c.id)
		m.outbox.queued = append(m.outbox.queued, delivery{meta: c.meta, status: end.Status, result: result, usage: end.Stats.Usage, waits: waits})
	}
	m.mu.Unlock()
	if background {
		m.sess.Emit(event.ResultQueued{Meta: c.stamp(), Status: end.Status, Waits: waits})
	}
	m.outbox.queueMu.Unlock()
	if background {
		m.sess.Wake()
	}
}

// Pending is how many results wait for the main agent.
func (m *Manager) Pending() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.outbox.queued)
}

// Running reports whether a background child still runs.
func (m *Manager) Running() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.outbox.live) > 0
}

// TakeOwed returns, and forgets, the usage of results task_wait took
// after the main agent's last request, for its turn to count.
func (m *Manager) TakeOwed() event.Usage {
	m.mu.Lock()
	defer m.mu.Unlock()
	owed := m.outbox.owed
	m.outbox.owed = event.Usage{}
	return owed
}

// WakeLabel is how a turn of its own for the waiting results opens: "[#3
// done] explore-3 (…)", and how many more results came with it.
func (m *Manager) WakeLabel() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	ds := m.outbox.queued
	if len(ds) == 0 {
		return ""
	}
	label := ds[0].heading()
	if len(ds) > 1 {
		label += fmt.Sprintf(" and %d more", len(ds)-1)
	}
	return label
}

// Deliver moves the waiting results into the main agent's history as one
// message, before its next request, and returns the children's usage to
// count in its turn: a foreground child's is counted by its task call.
func (m *Manager) Deliver(a *agent.Agent) event.Usage {
	m.outbox.queueMu.Lock()
	defer m.outbox.queueMu.Unlock()
	m.mu.Lock()
	ds, owed := m.outbox.queued, m.outbox.owed
	m.outbox.queued, m.outbox.owed = nil, event.Usage{}
	for _, d := range ds {
		m.outbox.delivered[d.meta.Agent] = true
	}
	m.mu.Unlock()
	if len(ds) > 0 {
		a.Append(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: deliveryText(ds)})
	}
	usage := owed
	for _, d := range ds {
		a.Emit(event.ResultDelivered{Meta: a.Stamp(), Child: d.meta.Agent, Number: d.meta.Number, Status: d.status, Via: "turn"})
		usage = usage.Add(d.usage)
	}
	return usage
}

// takeDelivered hands task_wait the waiting results of ids, marking them
// delivered; their usage is counted with the main agent's next request.
func (m *Manager) takeDelivered(ids map[event.AgentID]bool) []delivery {
	m.outbox.queueMu.Lock()
	defer m.outbox.queueMu.Unlock()
	m.mu.Lock()
	var taken, kept []delivery
	for _, d := range m.outbox.queued {
		if !ids[d.meta.Agent] {
			kept = append(kept, d)
			continue
		}
		taken = append(taken, d)
		m.outbox.delivered[d.meta.Agent] = true
		m.outbox.owed = m.outbox.owed.Add(d.usage)
	}
	m.outbox.queued = kept
	m.mu.Unlock()
	for _, d := range taken {
		m.sess.Emit(event.ResultDelivered{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Child: d.meta.Agent, Number: d.meta.Number, Status: d.status, Via: "task_wait"})
	}
	return taken
}

// wasDelivered reports whether the main agent has a background child's
// result.
func (m *Manager) wasDelivered(id event.AgentID) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.outbox.delivered[id]
}

// heading is "[#3 done] explore-3 (find auth code)".
func (d delivery) heading() string {
	return fmt.Sprintf("[#%d %s] %s (%s)", d.meta.Number, d.status.Word(), d.meta.Agent, d.meta.Description)
}

// deliveryText is the message that hands the main agent its results.
func deliveryText(ds []delivery) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.heading() + " ended in the background. Its result:\n\n" + d.result
	}
	return strings.Join(parts, "\n\n---\n\n")
}
