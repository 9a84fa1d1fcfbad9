package child

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// ids hands out readable, session-unique child ids and numbers.
type ids struct {
	children atomic.Int64
}

// next returns an id like "explore-3" and the child's number, 3: one
// session-wide count, so the number a person types ("#3", "/subagents
// stop 3") and the one the model passes to task_status name the same
// child in every turn, and after a resume (noteUsed moves the count on).
// The id also names the child's transcript file.
func (s *ids) next(typeName string) (event.AgentID, int) {
	n := int(s.children.Add(1))
	// A nested OpenCode name ("review/security") reads as one word.
	name := strings.ToLower(strings.Join(strings.Fields(strings.ReplaceAll(typeName, "/", "-")), "-"))
	if name == "" {
		name = "agent"
	}
	return event.AgentID(fmt.Sprintf("%s-%d", name, n)), n
}

// noteUsed moves the counter past the ids a resumed transcript used, so
// new children never reuse an old child's id (and transcript file).
func (s *ids) noteUsed(ev event.Event) {
	n, ok := ordinal(string(ev.EventMeta().Agent))
	if !ok {
		return
	}
	for {
		cur := s.children.Load()
		if cur >= n || s.children.CompareAndSwap(cur, n) {
			return
		}
	}
}

// ordinal reads the number after the last '-' of a child's id.
func ordinal(id string) (int64, bool) {
	i := strings.LastIndex(id, "-")
	if i < 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(id[i+1:], 10, 64)
	return n, err == nil
}
