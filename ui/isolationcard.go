package ui

import "github.com/seed-e4e525a6/baton/engine/event"

// isolationFacts is the card's word on where the child works: "worktree
// from main@1a2b3c4 + uncommitted changes · <folder>", or "shared" and,
// when a worktree was refused, why.
func isolationFacts(d *event.DelegationPreview, field func(label, value string) string) []string {
	switch {
	case d.Isolation == event.IsolationWorktree:
		return []string{field("isolation", "worktree from "+d.From)}
	case d.IsolationNote != "":
		return []string{field("isolation", "shared: "+d.IsolationNote)}
	case d.Isolation == event.IsolationShared:
		return []string{field("isolation", "shared (works in your tree)")}
	}
	return nil
}
