package agent

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// CallerTool is a tool that acts for the agent calling it and asks the
// person itself: task, whose delegation card is its approval and whose
// result the child's runner already bounds. The executor neither
// authorizes nor cuts its calls; those of one message run alongside each
// other and alongside the message's other calls, readied in the order
// requested.
type CallerTool interface {
	tools.Tool
	// RunFor runs one call for call.Caller.
	RunFor(ctx context.Context, call Call) (tools.Result, error)
}

// Call is one call of a CallerTool, with the agent it runs for.
type Call struct {
	// ID is the call's id in the caller's history.
	ID     string
	Args   json.RawMessage
	Caller Caller
	// Batch is the arguments of this tool's calls in the same message,
	// in the order requested, this call's included.
	Batch []json.RawMessage
	// Stage orders the batch: RunFor calls Stage.Ready once the call is
	// ready (a task call: its child numbered, queued, its card shown).
	Stage *Stage
}

// Caller is the agent a tool acts for, as a value: the same whether the
// agent runs in this process or elsewhere.
type Caller struct {
	Meta  event.Meta
	Depth int
	// Model is the model of the caller's next request.
	Model string
	// Tell queues a note the caller reads before its next request (the
	// outcome of a review of its child's change).
	Tell func(string)
}

// Stage orders the caller-tool calls of one message: each readies itself
// (a task call: its child numbered, queued, its card published) only
// after the one before it has, and none goes on until all have, so a
// quick first child cannot finish and free its slot while its siblings
// are still being put in line. A nil stage has nothing to wait for.
type Stage struct {
	turn <-chan struct{} // closed when the call before this one is ready
	done chan struct{}   // closed when this call is ready
	once sync.Once
	all  <-chan struct{} // closed when every call of the batch is ready
	// ready, when set, is told that this call is ready (JoinStage).
	ready func()
}

// JoinStage is the stage of a call whose batch is readied elsewhere (by
// an agent in another process): being ready tells ready, and Ready waits
// for all to close.
func JoinStage(ready func(), all <-chan struct{}) *Stage {
	turn := make(chan struct{})
	close(turn)
	return &Stage{turn: turn, done: make(chan struct{}), all: all, ready: ready}
}

// stages returns one stage per call of a batch, in order.
func stages(n int) []*Stage {
	out := make([]*Stage, n)
	prev := make(chan struct{})
	close(prev)
	for i := range out {
		out[i] = &Stage{turn: prev, done: make(chan struct{})}
		prev = out[i].done
	}
	for _, st := range out {
		st.all = prev
	}
	return out
}

// wait returns once the call before this one is ready.
func (st *Stage) wait() {
	if st != nil {
		<-st.turn
	}
}

// Ready says this call is ready and waits until the whole batch is.
func (st *Stage) Ready() {
	if st != nil {
		st.release()
		<-st.all
	}
}

// release says this call is ready without waiting; the executor calls it
// for a call that failed before it got that far.
func (st *Stage) release() {
	if st != nil {
		st.once.Do(func() {
			close(st.done)
			if st.ready != nil {
				st.ready()
			}
		})
	}
}
