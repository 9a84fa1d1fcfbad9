package conversation

import (
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/pane"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// A child's pane lives in the agents area while it runs; once it ends, its
// summary line takes the place of the task call that started it, so the
// conversation reads in the order things were asked for.

// Link ties a new child to the parent's task call that started it, which
// the child's events name. A child of a child has no line here and is not
// linked; neither is a call no longer on screen.
func (c *Model) Link(meta event.Meta, p *pane.Pane) {
	if meta.Parent != event.MainAgent {
		return
	}
	it, ok := c.calls[meta.TaskCall]
	if !ok {
		return
	}
	it.block.(*toolCall).child = p
	c.children[p.ID()] = it
}

// Fold redraws the task line of a child that ended as its summary; a
// child without one gets its summary line at the end.
func (c *Model) Fold(p *pane.Pane) {
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
	return termtext.Fit(p.HeaderLine(width), width)
}

// Refresh redraws the line that shows p's summary.
func (c *Model) Refresh(p *pane.Pane) {
	if it, ok := c.children[p.ID()]; ok {
		it.version++
		return
	}
	for _, it := range c.items {
		if f, ok := it.block.(*foldLine); ok && f.child == p {
			it.version++
		}
	}
}
