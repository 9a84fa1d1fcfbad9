package engine

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// childRun is one child as the session keeps it, from its task call to
// long after it ended: how far it got (task_status), when it ends
// (task_wait, the waiting task call), whether its parent's call still
// waits for it, and its spec and history for follow-ups.
type childRun struct {
	id     event.AgentID
	number int
	meta   event.Meta
	// started is what AgentStarted said, and the only record of the type,
	// model and tools of a child restored from a transcript.
	started event.AgentStarted
	// spec and agent are set for children of this process; agent's
	// history is read only after finished is closed.
	spec  *childSpec
	agent *Agent
	// finished is closed once the outcome is set; detached when the
	// parent's call let go of the child.
	finished chan struct{}
	detached chan struct{}
	// unlink stops the parent call's cancellation reaching the child.
	unlink func() bool

	mu          sync.Mutex
	approved    bool
	background  bool
	done        bool
	res         Result
	result      string // what the parent receives
	begin       time.Time
	toolCalls   int
	lastText    string
	streaming   strings.Builder
	continuedBy event.AgentID
}

// errAlreadyEnded says a child cannot be sent to the background: its
// result is on its way to the waiting call.
var errAlreadyEnded = errors.New("it has already ended")

// newChildRun starts the record of a child about to be approved.
func newChildRun(id event.AgentID, number int, meta event.Meta) *childRun {
	return &childRun{id: id, number: number, meta: meta, finished: make(chan struct{}), detached: make(chan struct{}), unlink: func() bool { return false }}
}

// observe wraps a child's emit so the run follows its progress.
func (r *childRun) observe(next func(event.Event)) func(event.Event) {
	return func(ev event.Event) {
		if ev.EventMeta().Agent == r.id {
			r.note(ev)
		}
		next(ev)
	}
}

// partialChars bounds the partial text task_status reports.
const partialChars = 600

// note keeps what task_status reports of a running child.
func (r *childRun) note(ev event.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch e := ev.(type) {
	case event.AgentStarted:
		r.begin, r.started = e.Time, e
	case event.ToolStarted:
		r.toolCalls++
	case event.TextDelta:
		if r.streaming.Len() < 4*partialChars {
			r.streaming.WriteString(e.Text)
		}
	case event.MessageDone:
		if strings.TrimSpace(e.Text) != "" {
			r.lastText = e.Text
		}
		r.streaming.Reset()
	}
}

// markBackground notes that the parent's call let go of the child; it
// fails once the child has ended. The session holds its lock.
func (r *childRun) markBackground() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return errAlreadyEnded
	}
	if !r.approved {
		return errors.New("its delegation waits for an answer; approve it first")
	}
	if r.background {
		return errors.New("it already runs in the background")
	}
	r.background = true
	r.unlink()
	close(r.detached)
	return nil
}

// approve notes that the delegation was approved.
func (r *childRun) approve() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.approved = true
}

// settle records the outcome and reports whether the child ran in the
// background, so its result has to be delivered. The session holds its
// lock.
func (r *childRun) settle(res Result, result string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done, r.res, r.result = true, res, result
	close(r.finished)
	return r.background
}

// isBackground reports whether the parent's call let go of the child.
func (r *childRun) isBackground() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.background
}

// outcome returns the result once the child has ended.
func (r *childRun) outcome() (res Result, result string, done bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.res, r.result, r.done
}

// toolResult is what a waiting task call returns for the ended child,
// with the child's usage for its parent to count.
func (r *childRun) toolResult() tools.Result {
	res, result, _ := r.outcome()
	return tools.Result{Output: result, Summary: fmt.Sprintf("%s · %s", res.Status, res.Stats.Line()), Usage: res.Stats.Usage}
}

// startedResult is what the parent's call returns when the child goes on
// in the background.
func (r *childRun) startedResult() tools.Result {
	return tools.Result{
		Output: fmt.Sprintf("started #%d in the background (id %s). Its result will be delivered to you when it ends; "+
			"task_status reports its progress, task_wait waits for it, and a task call with resume: %q asks it more once it has ended.",
			r.number, r.id, r.id),
		Summary: fmt.Sprintf("started #%d in the background", r.number),
	}
}

// status is one line of task_status: "#3 explore-3 [Explore] find auth
// code: running · 4 tools · 12.3s · background", then the partial or
// final text.
func (r *childRun) status(now time.Time, delivered bool) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %s [%s] %s: ", r.number, r.id, r.meta.AgentType, r.meta.Description)
	text := r.lastText
	switch {
	case r.done:
		fmt.Fprintf(&b, "%s · %s", r.res.Status, r.res.Stats.Line())
		text = r.res.Text
	case r.begin.IsZero():
		b.WriteString("waiting to start (approval or a free slot)")
	default:
		fmt.Fprintf(&b, "running · %s · %.1fs", event.Plural(r.toolCalls, "tool"), now.Sub(r.begin).Seconds())
		if s := r.streaming.String(); strings.TrimSpace(s) != "" {
			text = s
		}
	}
	switch {
	case r.background && r.done && delivered:
		b.WriteString(" · result delivered")
	case r.background && r.done:
		b.WriteString(" · result not yet delivered (task_wait returns it)")
	case r.background:
		b.WriteString(" · background")
	}
	if r.continuedBy != "" {
		fmt.Fprintf(&b, " · continued by %s", r.continuedBy)
	}
	if text = strings.TrimSpace(text); text != "" {
		label := "latest text"
		if r.done {
			label = "final text"
		}
		fmt.Fprintf(&b, "\n  %s: %s", label, tail(text, partialChars))
	}
	return b.String()
}

// tail keeps the last max characters of s, marking the cut.
func tail(s string, max int) string {
	runes := []rune(s)
	if len(runes) <= max {
		return s
	}
	return "…" + string(runes[len(runes)-max:])
}
