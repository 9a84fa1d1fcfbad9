package child

import (
	"sync/atomic"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Places readied ahead of the main agent's delegations. On a runner that
// can ready a place before its child is asked for (a Warmer: the process
// runner's spare processes), a child whose place is ready starts in a few
// milliseconds, one whose place is not pays the whole start of a process
// after its task call is read. So each request of the main agent that
// offers task readies, once it is sent (readying first would hold the
// request up), as many places as the session's last delegation asked for
// children (firstWidth before its first), and each task call the model
// begins one more when there are more calls than that. A model that
// writes its reply all at once names its calls only when the reply ends:
// without places readied while it thinks, every child of such a
// delegation would start cold.

// firstWidth is how many places a session readies before its first
// delegation: a fan-out of up to three children starts warm.
const firstWidth = 3

// warming is what the manager knows to ready places.
type warming struct {
	// width is how many task calls the main agent's last delegating
	// message held (0: none yet).
	width atomic.Int32
	// begun counts the task calls begun in the main agent's request.
	begun atomic.Int32
	// reports says the main agent delegated since its last request:
	// its next one reads the children's reports.
	reports atomic.Bool
}

// places is how many places the next delegation is expected to need.
func (w *warming) places() int {
	if n := int(w.width.Load()); n > 0 {
		return n
	}
	return firstWidth
}

// RequestSent is told of each request of the main agent once it is on
// its way: one that offers task readies places for the children it may
// ask for while the model thinks, unless it reads the reports of the
// children the last one asked for.
func (m *Manager) RequestSent(offered *tools.Set) {
	m.warm.begun.Store(0)
	if _, ok := offered.Get(TaskToolName); ok && !m.warm.reports.Swap(false) {
		m.keepReady(m.warm.places())
	}
}

// ToolBegins is told of each tool call the main agent's model begins: a
// task call, as soon as its name has come, readies a place for its child
// on the session's runner while its arguments stream, when those readied
// as the request began are fewer than its calls, so that a child process
// is past its start by the time the call is read and approved (nothing
// runs there before the approval), and has the rest of the reply read as
// it comes, not gathered: a child's start waits on the reply's end.
func (m *Manager) ToolBegins(name string) (hurry bool) {
	if name != TaskToolName {
		return false
	}
	m.keepReady(max(m.warm.places(), int(m.warm.begun.Add(1))))
	return true
}

// keepReady has the session's runner, if it can, keep n places ready.
func (m *Manager) keepReady(n int) {
	if w, ok := m.opts.Runners[m.opts.Runner].(Warmer); ok && m.opts.Workspace != nil {
		w.Warm(m.opts.Workspace.Root(), n)
	}
}

// delegated notes how many children a message of the main agent asked
// for: as many places are readied for its next delegation.
func (m *Manager) delegated(call agent.Call) {
	if call.Caller.Meta.Agent == event.MainAgent && len(call.Batch) > 0 {
		m.warm.width.Store(int32(len(call.Batch)))
		m.warm.reports.Store(true)
	}
}
