package engine

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// idSource hands out readable, session-unique identifiers.
type idSource struct {
	children  atomic.Int64
	approvals atomic.Int64
	persons   atomic.Int64
}

// child returns an id like "explore-3" and the child's number, 3: one
// session-wide count, so the number a person types ("#3", "/subagents
// stop 3") and the one the model passes to task_status name the same
// child in every turn, and after a resume (noteUsed moves the count on).
// The id also names the child's transcript file.
func (s *idSource) child(typeName string) (event.AgentID, int) {
	n := int(s.children.Add(1))
	// A nested OpenCode name ("review/security") reads as one word.
	name := strings.ToLower(strings.Join(strings.Fields(strings.ReplaceAll(typeName, "/", "-")), "-"))
	if name == "" {
		name = "agent"
	}
	return event.AgentID(fmt.Sprintf("%s-%d", name, n)), n
}

// approval returns a fresh approval request id.
func (s *idSource) approval() string {
	return fmt.Sprintf("ap-%d", s.approvals.Add(1))
}

// personCall returns a fresh id for a call the person made, not the
// model (a file read for an @mention, a !command): "person-4".
func (s *idSource) personCall() string {
	return fmt.Sprintf("%s%d", personCallPrefix, s.persons.Add(1))
}

// personCallPrefix starts the ids of the person's own calls.
const personCallPrefix = "person-"

// noteUsed moves the counters past the ids a resumed transcript used, so
// new children never reuse an old child's id (and transcript file).
func (s *idSource) noteUsed(ev event.Event) {
	if n, ok := ordinal(string(ev.EventMeta().Agent), "-"); ok {
		raise(&s.children, n)
	}
	if r, ok := ev.(event.ApprovalResolved); ok {
		if n, ok := ordinal(r.RequestID, "ap-"); ok {
			raise(&s.approvals, n)
		}
	}
	if t, ok := ev.(event.ToolStarted); ok && strings.HasPrefix(t.CallID, personCallPrefix) {
		if n, ok := ordinal(t.CallID, personCallPrefix); ok {
			raise(&s.persons, n)
		}
	}
}

// ordinal reads the number after the last sep in id.
func ordinal(id, sep string) (int64, bool) {
	i := strings.LastIndex(id, sep)
	if i < 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(id[i+len(sep):], 10, 64)
	return n, err == nil
}

// raise sets c to at least n.
func raise(c *atomic.Int64, n int64) {
	for {
		cur := c.Load()
		if cur >= n || c.CompareAndSwap(cur, n) {
			return
		}
	}
}
