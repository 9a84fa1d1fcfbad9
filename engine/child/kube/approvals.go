package kube

import (
	"context"
	"fmt"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/child/process"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/hooks"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// The values of [runner.kubernetes] approvals: who decides a remote
// child's tool calls that would ask.
const (
	// ApprovalsAsk brings them to the person's cards, as for any child;
	// the answer goes back over the pod's attached input. The default.
	ApprovalsAsk = "ask"
	// ApprovalsAllow pre-approves them (a child on a cluster may run
	// unattended) and reports each in its pane; deny and ask rules still
	// hold.
	ApprovalsAllow = "allow"
)

// runner is the process runner with the kubernetes launcher, and the
// approvals policy applied to each child's questions.
type runner struct {
	*process.Runner
	approvals string
}

// PlacesLate implements child.LatePlacer: the pane learns the Job's name
// and the start latency when baton-kube reports the pod running.
func (runner) PlacesLate() {}

// Start implements child.Runner.
func (r runner) Start(ctx context.Context, job child.Job) (child.Handle, error) {
	if r.approvals == ApprovalsAllow && job.Link.Authorize != nil {
		job.Link.Authorize = preApproved{inner: job.Link.Authorize, emit: job.Link.Emit, meta: job.Spec.Meta}
	}
	return r.Runner.Start(ctx, job)
}

// preApproved decides a remote child's tool calls as a PreToolUse hook
// that allows them would: no card, unless a deny or ask rule says
// otherwise, and the pane is told of each.
type preApproved struct {
	inner agent.Authorizer
	emit  func(event.Event)
	meta  event.Meta
}

// Authorize implements agent.Authorizer.
func (p preApproved) Authorize(ctx context.Context, req agent.ToolRequest) (tools.Withhold, error) {
	pre := req.Hook == ""
	if pre {
		req.Hook = hooks.Allow
	}
	w, err := p.inner.Authorize(ctx, req)
	if err == nil && pre && !req.ReadOnly {
		p.emit(event.Notice{Meta: p.meta, Text: fmt.Sprintf("%s pre-approved by [runner.kubernetes] approvals = %q", req.Tool, ApprovalsAllow)})
	}
	return w, err
}
