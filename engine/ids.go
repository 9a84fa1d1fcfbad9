package engine

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// personCalls hands out the ids of the calls the person made, not the
// model (a file read for an @mention, a !command). Children's ids are the
// child package's, approvals' the permission policy's.
type personCalls struct{ n atomic.Int64 }

// personCallPrefix starts the ids of the person's own calls.
const personCallPrefix = "person-"

// personCall returns a fresh id: "person-4".
func (s *personCalls) personCall() string {
	return fmt.Sprintf("%s%d", personCallPrefix, s.n.Add(1))
}

// noteUsed moves the counter past an id a resumed transcript used, so a
// new call never reuses an old call's id.
func (s *personCalls) noteUsed(ev event.Event) {
	t, ok := ev.(event.ToolStarted)
	if !ok {
		return
	}
	digits, ok := strings.CutPrefix(t.CallID, personCallPrefix)
	n, err := strconv.ParseInt(digits, 10, 64)
	if !ok || err != nil {
		return
	}
	for {
		cur := s.n.Load()
		if cur >= n || s.n.CompareAndSwap(cur, n) {
			return
		}
	}
}
