package child

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// The main agent's explicit joins on its background children.
const (
	TaskStatusToolName = "task_status"
	TaskWaitToolName   = "task_wait"
)

// Bounds of task_wait's timeout_s: a join never blocks the main agent
// longer than the hard maximum.
const (
	defaultWaitS = 60
	maxWaitS     = 600
)

// joinArgs are the arguments of task_status and task_wait.
type joinArgs struct {
	IDs      []string `json:"ids"`
	TimeoutS int      `json:"timeout_s"`
}

// joinTool is task_status (wait false) or task_wait (wait true). Both
// read the session's children and change nothing, so they need no
// approval.
type joinTool struct {
	m    *Manager
	wait bool
}

// Name implements tools.Tool.
func (t *joinTool) Name() string {
	if t.wait {
		return TaskWaitToolName
	}
	return TaskStatusToolName
}

// ReadOnly implements tools.Tool.
func (t *joinTool) ReadOnly() bool { return true }

// Title implements tools.Tool: "task_wait explore-3, explore-4".
func (t *joinTool) Title(args json.RawMessage) string {
	var a joinArgs
	if json.Unmarshal(args, &a) != nil || len(a.IDs) == 0 {
		return t.Name()
	}
	return t.Name() + " " + strings.Join(a.IDs, ", ")
}

// Description implements tools.Tool.
func (t *joinTool) Description() string {
	if t.wait {
		return "Wait for sub-agents to end, at most timeout_s seconds, and return the result of each that ended (a result returned here is not delivered again). " +
			"Without ids it waits for every background sub-agent still running or whose result you have not received. Use it when you cannot go on without their results."
	}
	return "Report sub-agents of this session by id or #number: status, tool calls, time so far and their latest text. Without ids it reports all of them. It never waits."
}

// Schema implements tools.Tool.
func (t *joinTool) Schema() json.RawMessage {
	timeout := ""
	if t.wait {
		timeout = fmt.Sprintf(`,
    "timeout_s": {"type": "integer", "minimum": 1, "maximum": %d, "description": "How long to wait at most (default %d)."}`, maxWaitS, defaultWaitS)
	}
	return json.RawMessage(`{
  "type": "object",
  "properties": {
    "ids": {"type": "array", "items": {"type": "string"}, "description": "Sub-agent ids (explore-3) or numbers (3, #3)."}` + timeout + `
  }
}`)
}

// Run implements tools.Tool.
func (t *joinTool) Run(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	var a joinArgs
	if err := json.Unmarshal(raw, &a); err != nil {
		return tools.Result{}, fmt.Errorf("invalid arguments for %s: %w", t.Name(), err)
	}
	if a.TimeoutS < 0 || a.TimeoutS > maxWaitS {
		return tools.Result{}, fmt.Errorf("timeout_s must be between 1 and %d seconds", maxWaitS)
	}
	runs, err := t.pick(a.IDs)
	if err != nil {
		return tools.Result{}, err
	}
	if len(runs) == 0 {
		return tools.Result{Output: "no sub-agents to report: none runs in the background or has a result you have not received", Summary: "none"}, nil
	}
	if !t.wait {
		return t.report(runs, nil), nil
	}
	timeout := time.Duration(a.TimeoutS) * time.Second
	if a.TimeoutS == 0 {
		timeout = defaultWaitS * time.Second
	}
	if err := join(ctx, runs, timeout); err != nil {
		return tools.Result{}, err
	}
	ids := map[event.AgentID]bool{}
	for _, r := range runs {
		ids[r.id] = true
	}
	out := t.report(runs, t.m.takeDelivered(ids))
	if still := countRunning(runs); still > 0 {
		out.Output += fmt.Sprintf("\n\n%d still running after the wait of %s; each result is delivered to you when it ends, or call task_wait again.", still, timeout)
	}
	return out, nil
}

// countRunning counts the runs that have not ended.
func countRunning(runs []*Child) int {
	n := 0
	for _, r := range runs {
		if _, _, done := r.outcome(); !done {
			n++
		}
	}
	return n
}

// pick resolves the ids, or without any, the children worth reporting:
// every child for task_status, the open background ones for task_wait.
func (t *joinTool) pick(refs []string) ([]*Child, error) {
	var runs []*Child
	for _, ref := range refs {
		r, err := t.m.find(ref)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	if len(refs) > 0 {
		return runs, nil
	}
	for _, r := range t.m.all() {
		if !t.wait || r.isBackground() && !t.m.wasDelivered(r.id) {
			runs = append(runs, r)
		}
	}
	return runs, nil
}

// join waits until every run has ended, the timeout passes or ctx ends;
// only the last is an error.
func join(ctx context.Context, runs []*Child, timeout time.Duration) error {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for _, r := range runs {
		select {
		case <-r.finished:
		case <-timer.C:
			return nil
		case <-ctx.Done():
			return fmt.Errorf("task_wait: %w", errors.Join(ctx.Err(), context.Cause(ctx)))
		}
	}
	return nil
}

// report is each child's status line; the results task_wait took follow
// in full.
func (t *joinTool) report(runs []*Child, taken []delivery) tools.Result {
	now := time.Now()
	var b strings.Builder
	running := countRunning(runs)
	for _, r := range runs {
		b.WriteString(r.status(now, t.m.wasDelivered(r.id)))
		b.WriteString("\n")
	}
	for _, d := range taken {
		fmt.Fprintf(&b, "\n%s ended. Its result:\n\n%s\n", d.heading(), d.result)
	}
	summary := fmt.Sprintf("%d running", running)
	if t.wait && running > 0 {
		summary = fmt.Sprintf("%d still running after the wait", running)
	}
	return tools.Result{Output: strings.TrimRight(b.String(), "\n"), Summary: summary}
}
