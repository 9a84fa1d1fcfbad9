package child

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Child is one child of a session, its one record from its task call to
// long after it ended: its spec, its life (approval, slot, run, end), how
// far it got (task_status), when it ends (task_wait, the waiting task
// call), whether its parent's call still waits for it, and its history
// for follow-ups.
type Child struct {
	m    *Manager
	id   event.AgentID
	meta event.Meta
	// spec is set for the children of this process, nil for one restored
	// from a transcript, whose started then says its type, model and
	// tools.
	spec *Spec
	// seed is the history the child starts from.
	seed []openai.ChatCompletionMessage
	// ctx is the child's life, the session's, tied to its caller's call
	// until the call lets go of it (background); unlink cuts that tie.
	ctx    context.Context
	cancel context.CancelCauseFunc
	unlink func() bool
	grants *permission.Grants
	// prev is the finished child a follow-up continues (nil: none).
	prev *Child
	// iso is the child's worktree (nil: it works in the person's tree),
	// isoNote why one was asked for and refused; ws is the workspace its
	// tools are bound to.
	iso     *isolated
	isoNote string
	ws      *tools.Workspace
	// answer waits for the approval asked for in prepare (asked says a
	// person gives it, not a rule or the mode); place is the child's
	// place in the slot line, taken once nobody has to approve it (nil
	// until then).
	answer func(context.Context) event.Answer
	asked  bool
	place  *ticket
	// finished is closed once the outcome is set; detached when the
	// parent's call let go of the child.
	finished chan struct{}
	detached chan struct{}

	mu sync.Mutex
	// handle is the running loop; steers are the messages the person
	// sent before it started.
	handle Handle
	steers []string
	// started is what AgentStarted said, and the only record of the type,
	// model and tools of a child restored from a transcript.
	started     event.AgentStarted
	history     []openai.ChatCompletionMessage
	approved    bool
	background  bool
	done        bool
	res         agent.Result
	result      string // what the parent receives
	begin       time.Time
	toolCalls   int
	lastText    string
	streaming   strings.Builder
	continuedBy event.AgentID
	// woundDown says the person has asked it to wind down; personNotes
	// are what the parent is told the person did.
	woundDown   bool
	personNotes []string
}

// newChild starts the record of a child about to be asked for.
func newChild(m *Manager, meta event.Meta) *Child {
	return &Child{m: m, id: meta.Agent, meta: meta, finished: make(chan struct{}), detached: make(chan struct{}),
		unlink: func() bool { return false }, cancel: func(error) {}}
}

// errAlreadyEnded says a child cannot be sent to the background: its
// result is on its way to the waiting call.
var errAlreadyEnded = errors.New("it has already ended")

// emit notes what task_status reports of the child, then hands ev to the
// session.
func (c *Child) emit(ev event.Event) {
	if ev.EventMeta().Agent == c.id {
		c.note(ev)
	}
	c.m.sess.Emit(ev)
}

// stamp returns the child's Meta with the current time.
func (c *Child) stamp() event.Meta {
	m := c.meta
	m.Time = time.Now()
	return m
}

// who is the child as its cards name it.
func (c *Child) who() permission.Who {
	return permission.Who{Meta: c.meta, Emit: c.emit, Worktree: c.spec.Worktree}
}

// partialChars bounds the partial text task_status reports.
const partialChars = 600

// note keeps what task_status reports of a running child.
func (c *Child) note(ev event.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch e := ev.(type) {
	case event.AgentStarted:
		c.begin, c.started = e.Time, e
	case event.ToolStarted:
		c.toolCalls++
	case event.TextDelta:
		if c.streaming.Len() < 4*partialChars {
			c.streaming.WriteString(e.Text)
		}
	case event.MessageDone:
		if strings.TrimSpace(e.Text) != "" {
			c.lastText = e.Text
		}
		c.streaming.Reset()
	}
}

// control sends a control into the child: to its loop once it runs, a
// message kept for its start before then.
func (c *Child) control(ctl Control) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.done:
		return errors.New("it has finished; the message was not delivered")
	case c.handle != nil:
		return c.handle.Control(ctl)
	case ctl.Kind == Steer:
		c.steers = append(c.steers, ctl.Text)
		return nil
	}
	return fmt.Errorf("it has not started; the %s control was not delivered", ctl.Kind)
}

// markBackground notes that the parent's call let go of the child; it
// fails once the child has ended.
func (c *Child) markBackground() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return errAlreadyEnded
	}
	if !c.approved {
		return errors.New("its delegation waits for an answer; approve it first")
	}
	if c.background {
		return errors.New("it already runs in the background")
	}
	c.background = true
	c.unlink()
	close(c.detached)
	return nil
}

// approve notes that the delegation was approved.
func (c *Child) approve() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.approved = true
}

// settle records the outcome and reports whether the child ran in the
// background, so its result has to be delivered.
func (c *Child) settle(res agent.Result, result string, history []openai.ChatCompletionMessage) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done, c.res, c.result, c.history = true, res, result, history
	close(c.finished)
	return c.background
}

// isBackground reports whether the parent's call let go of the child.
func (c *Child) isBackground() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.background
}

// outcome returns the result once the child has ended.
func (c *Child) outcome() (res agent.Result, result string, done bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.res, c.result, c.done
}

// toolResult is what a waiting task call returns for the ended child,
// with the child's usage for its parent to count.
func (c *Child) toolResult() tools.Result {
	res, result, _ := c.outcome()
	return tools.Result{Output: result, Summary: fmt.Sprintf("%s · %s", res.Status, res.Stats.Line()), Usage: res.Stats.Usage}
}

// startedResult is what the parent's call returns when the child goes on
// in the background.
func (c *Child) startedResult() tools.Result {
	return tools.Result{
		Output: fmt.Sprintf("started #%d in the background (id %s). Its result will be delivered to you when it ends; "+
			"task_status reports its progress, task_wait waits for it, and a task call with resume: %q asks it more once it has ended.",
			c.meta.Number, c.id, c.id),
		Summary: fmt.Sprintf("started #%d in the background", c.meta.Number),
	}
}

// status is one line of task_status: "#3 explore-3 [Explore] find auth
// code: running · 4 tools · 12.3s · background", then the partial or
// final text.
func (c *Child) status(now time.Time, delivered bool) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %s [%s] %s: ", c.meta.Number, c.id, c.meta.AgentType, c.meta.Description)
	text := c.lastText
	switch {
	case c.done:
		fmt.Fprintf(&b, "%s · %s", c.res.Status, c.res.Stats.Line())
		text = c.res.Text
	case c.begin.IsZero():
		b.WriteString("waiting to start (approval or a free slot)")
	default:
		fmt.Fprintf(&b, "running · %s · %.1fs", event.Plural(c.toolCalls, "tool"), now.Sub(c.begin).Seconds())
		if s := c.streaming.String(); strings.TrimSpace(s) != "" {
			text = s
		}
	}
	switch {
	case c.background && c.done && delivered:
		b.WriteString(" · result delivered")
	case c.background && c.done:
		b.WriteString(" · result not yet delivered (task_wait returns it)")
	case c.background:
		b.WriteString(" · background")
	}
	if c.continuedBy != "" {
		fmt.Fprintf(&b, " · continued by %s", c.continuedBy)
	}
	if text = strings.TrimSpace(text); text != "" {
		label := "latest text"
		if c.done {
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
