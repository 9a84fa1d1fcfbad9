package pane

import "github.com/seed-e4e525a6/baton/ui/convo"

// Conversation is the child's conversation model, which the pane's
// activity, the transcript view and /subagents log draw.
func (p *Pane) Conversation() *convo.Model { return p.convo }
