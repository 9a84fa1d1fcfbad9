package engine

import (
	"context"
	"sync"

	"github.com/seed-e4e525a6/baton/engine/tools"
)

// alongside marks a tool whose calls run alongside the other calls of
// their message, all at once, and which asks the person itself: task,
// whose delegation card is its approval and whose result the child
// runner already bounds. The executor neither authorizes nor cuts it.
type alongside interface {
	runsAlongside()
}

// toolCall is the call a tool runs for, which a tool acting for its
// caller (task) reads from its context.
type toolCall struct {
	agent *Agent
	id    string
	stage *callStage
}

// callKey keys the toolCall in a context.
type callKey struct{}

// withCall tells the tool which agent's call it runs.
func withCall(ctx context.Context, c toolCall) context.Context {
	ctx = tools.WithCallRef(ctx, tools.CallRef{Agent: c.agent.meta.Agent, ID: c.id})
	return context.WithValue(ctx, callKey{}, c)
}

// callOf returns the call a tool runs for, if the executor said.
func callOf(ctx context.Context) (toolCall, bool) {
	c, ok := ctx.Value(callKey{}).(toolCall)
	return c, ok
}

// callStage orders the alongside calls of one message: each readies
// itself (a task call: its child numbered, queued, its card published)
// only after the one before it has, and none goes on until all have, so
// a quick first child cannot finish and free its slot while its siblings
// are still being put in line. A nil stage has nothing to wait for.
type callStage struct {
	turn <-chan struct{} // closed when the call before this one is ready
	done chan struct{}   // closed when this call is ready
	once sync.Once
	all  <-chan struct{} // closed when every call of the batch is ready
}

// stages returns one stage per alongside call, in order.
func stages(n int) []*callStage {
	out := make([]*callStage, n)
	prev := make(chan struct{})
	close(prev)
	for i := range out {
		out[i] = &callStage{turn: prev, done: make(chan struct{})}
		prev = out[i].done
	}
	for _, st := range out {
		st.all = prev
	}
	return out
}

// wait returns once the call before this one is ready.
func (st *callStage) wait() {
	if st != nil {
		<-st.turn
	}
}

// ready says this call is ready and waits until the whole batch is.
func (st *callStage) ready() {
	if st != nil {
		st.release()
		<-st.all
	}
}

// release says this call is ready without waiting; the executor calls it
// for a call that failed before it got that far.
func (st *callStage) release() {
	if st != nil {
		st.once.Do(func() { close(st.done) })
	}
}
