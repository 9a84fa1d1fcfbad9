package agenttypes

import "strings"

// The isolation values an agent file may declare.
const (
	// IsolationWorktree gives each child of the type its own git worktree.
	IsolationWorktree = "worktree"
	// IsolationShared runs each child in the person's working tree.
	IsolationShared = "shared"
)

// applyIsolation reads isolation: worktree or shared.
func applyIsolation(p *fileParser, t *Type, e entry) error {
	s, _ := scalar(e.value)
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case IsolationWorktree, IsolationShared:
		t.Isolation = v
	default:
		p.warn(e.line, "%s must be worktree or shared; ignored", e.key)
	}
	return nil
}
