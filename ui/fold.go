package ui

import (
	"encoding/json"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/pane"
)

// A child's pane lives in the agents area while it runs; once it ends, its
// summary line takes the place of the task call that started it, so the
// conversation reads in the order things were asked for.

// taskCall is a task tool line of the main agent that no child has
// claimed yet.
type taskCall struct {
	it          *item
	description string
}

// taskStarted notes a task call, for the child it is about to start.
func (c *conversation) taskStarted(it *item, args string) {
	var a struct {
		Description string `json:"description"`
	}
	_ = json.Unmarshal([]byte(args), &a) // a call with bad arguments starts no child
	c.tasks = append(c.tasks, taskCall{it: it, description: a.Description})
}

// taskFinished forgets a task call that ended: one that started no
// child (bad arguments, an unknown type) must not claim a later child.
func (c *conversation) taskFinished(it *item) {
	for i, t := range c.tasks {
		if t.it == it {
			c.tasks = append(c.tasks[:i:i], c.tasks[i+1:]...)
			return
		}
	}
}

// link ties a new child to the task call that started it: the oldest
// unclaimed call with the child's description, else the oldest
// unclaimed one. A child of a child has no line here and is not linked.
func (c *conversation) link(meta event.Meta, p *pane.Pane) {
	if meta.Parent != event.MainAgent || len(c.tasks) == 0 {
		return
	}
	at := 0
	for i, t := range c.tasks {
		if t.description == meta.Description {
			at = i
			break
		}
	}
	it := c.tasks[at].it
	c.tasks = append(c.tasks[:at:at], c.tasks[at+1:]...)
	it.block.(*toolCall).child = p
	c.children[p.ID()] = it
}

// fold redraws the task line of a child that ended as its summary; a
// child without one gets its summary line at the end.
func (c *conversation) fold(p *pane.Pane) {
	if it, ok := c.children[p.ID()]; ok {
		it.version++
		return
	}
	c.add(&foldLine{child: p})
}

// foldLine is the summary of a child that has no task line of its own in
// the conversation.
type foldLine struct{ child *pane.Pane }

func (b *foldLine) render(_ *renderCtx, width int) []string {
	return []string{summaryLine(b.child, width)}
}

// summaryLine is a finished child's one-line summary at width.
func summaryLine(p *pane.Pane, width int) string {
	p.SetSize(width, 1)
	return fit(p.Summary(), width)
}
