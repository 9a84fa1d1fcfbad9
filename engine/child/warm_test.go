package child

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// readied is a Warmer that notes how many places it was asked to keep.
type readied struct {
	Local
	asked []int
}

func (r *readied) Warm(_ string, n int) { r.asked = append(r.asked, n) }
func (r *readied) Cool()                {}

// warmed is a manager whose session's runner is w.
func warmed(t *testing.T, w *readied) *Manager {
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &Manager{opts: Options{Runner: "warm", Runners: map[string]Runner{"warm": w}, Workspace: ws}}
}

// delegation is a task call of the main agent in a message of width.
func delegation(width int) agent.Call {
	return agent.Call{Caller: agent.Caller{Meta: event.Meta{Agent: event.MainAgent}}, Batch: make([]json.RawMessage, width)}
}

// The main agent's requests ready as many places as its last delegation
// asked for children (three before the first), as they begin; the
// request that reads a delegation's reports readies none ahead, and a
// task call begun beyond the places readied readies one more. A request
// without task readies nothing, and a child's delegation leaves the
// width as it is.
func TestRequestsReadyPlacesForTheLastDelegationsWidth(t *testing.T) {
	w := &readied{}
	m := warmed(t, w)
	task := tools.NewSet(&taskTool{m: m})
	m.RequestSent(task)
	m.RequestSent(tools.NewSet())
	m.RequestSent(task)
	if want := []int{firstWidth, firstWidth}; !slices.Equal(w.asked, want) {
		t.Fatalf("before any delegation asked %v, want %v", w.asked, want)
	}
	for range firstWidth + 2 {
		m.ToolBegins(TaskToolName)
	}
	m.ToolBegins("read_file")
	if want := []int{3, 3, 3, 3, 3, 4, 5}; !slices.Equal(w.asked, want) {
		t.Fatalf("as five task calls began asked %v, want %v", w.asked, want)
	}
	m.delegated(delegation(2))
	w.asked = nil
	m.RequestSent(task) // reads the reports
	m.RequestSent(task)
	if want := []int{2}; !slices.Equal(w.asked, want) {
		t.Fatalf("after a delegation of two asked %v, want %v", w.asked, want)
	}
	m.delegated(agent.Call{Caller: agent.Caller{Meta: event.Meta{Agent: "explore-1"}}, Batch: make([]json.RawMessage, 4)})
	m.RequestSent(task)
	if want := []int{2, 2}; !slices.Equal(w.asked, want) {
		t.Fatalf("after a child delegated asked %v, want %v", w.asked, want)
	}
}
