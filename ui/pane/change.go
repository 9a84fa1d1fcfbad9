package pane

import (
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/convo"
)

// A worktree child's change is part of its fold line: "+42 −7 in 3 files,
// pending review", then what the review did with it.

// Change is the child's worktree change, nil for a child that worked in
// the shared tree.
func (p *Pane) Change() *event.Change { return p.change }

// PendingReview reports whether the child's change waits for the
// person's review; such a folded pane can take the focus, and enter on
// it opens the review.
func (p *Pane) PendingReview() bool {
	return p.change != nil && p.change.State == event.ChangePending
}

// reviewed records what the review did with the change.
func (p *Pane) reviewed(e event.ReviewFinished) {
	c := e.Change
	if p.change != nil {
		c.Worktree, c.Branch, c.Verify = p.change.Worktree, p.change.Branch, p.change.Verify
	}
	p.change = &c
	p.reviewNote = oneLine(e.Summary)
	p.convo.Append(convo.Entry{Kind: convo.Status, Title: "review", Summary: p.reviewNote})
}

// changePart is the fold line's change, " · +42 −7 in 3 files, pending
// review", or "" without a change.
func (p *Pane) changePart() string {
	c := p.change
	if c == nil || c.State == event.ChangeNone {
		return ""
	}
	st := &p.styles.Pane
	text := c.Line()
	switch c.State {
	case event.ChangePending:
		text += ", pending review"
	case event.ChangeKept:
		text += ", kept"
		if c.Branch != "" {
			text += " on " + c.Branch
		}
	case event.ChangeGone:
		text += ", its worktree is gone"
	case event.ChangeReviewed: // what the review did: applied, skipped, discarded
		if p.reviewNote != "" {
			text += ", " + p.reviewNote
		} else {
			text += ", reviewed"
		}
	}
	part := st.Muted.Render(" · ") + st.Title.Render(text)
	if v := c.Verify; v != nil {
		part += st.Muted.Render(" · ") + st.Title.Render(v.Mark())
	}
	return part
}
