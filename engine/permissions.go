package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// permissions decides calls that need approval: write_file, edit_file,
// run_command and delegations. Guardrails (workspace, blocklist, .git) are
// not decided here: the tools enforce them whatever the answer.
type permissions struct {
	mode    PermissionMode
	allowed map[string]bool
	ids     *idSource

	mu              sync.Mutex
	rememberedTools map[string]bool
	rememberedTypes map[string]bool
}

// newPermissions builds the policy for a session.
func newPermissions(mode PermissionMode, allow []string, ids *idSource) *permissions {
	p := &permissions{mode: mode, allowed: map[string]bool{}, ids: ids,
		rememberedTools: map[string]bool{}, rememberedTypes: map[string]bool{}}
	if p.mode == "" {
		p.mode = ModeAsk
	}
	for _, name := range allow {
		p.allowed[name] = true
	}
	return p
}

// authorizeTool returns nil when the call may run, or an error for the
// model saying why not and, in headless runs, how to allow it.
func (p *permissions) authorizeTool(ctx context.Context, a *Agent, tool tools.Tool, callID string, args json.RawMessage) error {
	name := tool.Name()
	preview := ""
	if pv, ok := tool.(tools.Previewer); ok {
		var err error
		if preview, err = pv.Preview(ctx, args); err != nil {
			return err
		}
	}
	switch {
	case p.mode == ModeYolo:
		return nil
	case allowsTool(p.allowed, name):
		return nil
	case p.mode == ModeHeadless:
		return fmt.Errorf("%s needs approval and a headless run cannot ask; re-run with --allow %s (or --yolo) to let it run", name, name)
	case p.remembered(p.rememberedTools, name):
		return nil
	}
	req := event.NewApprovalRequest(p.ids.approval(), ApproveTool)
	req.CallID, req.Tool, req.Args, req.Preview = callID, name, string(args), preview
	ans := p.ask(ctx, a.emit, a.stamp, req)
	switch ans.Decision {
	case AllowAlways:
		p.remember(p.rememberedTools, name)
		return nil
	case Allow:
		return nil
	}
	return &deniedError{tool: name, reason: ans.Reason}
}

// deniedError is a call the person refused: its text is for the model,
// and the executor marks the call denied for people.
type deniedError struct {
	tool, reason string
}

// Error implements error.
func (e *deniedError) Error() string {
	if e.reason != "" {
		return fmt.Sprintf("the person denied this %s call: %s", e.tool, e.reason)
	}
	return fmt.Sprintf("the person denied this %s call; do not retry it unchanged", e.tool)
}

// requestDelegation starts deciding a delegation: from flags in headless
// and yolo runs, from a remembered choice, or by asking the person. The
// question is published at once, so cards appear in the order children
// were requested; the returned function waits for the answer, and asked
// says whether a person has to give it.
func (p *permissions) requestDelegation(emit func(Event), stamp func() Meta, typeName string, preview *DelegationPreview) (answer func(context.Context) Answer, asked bool) {
	decided := func(a Answer) (func(context.Context) Answer, bool) {
		return func(context.Context) Answer { return a }, false
	}
	switch {
	case p.mode == ModeYolo || p.allowed[TaskToolName]:
		return decided(Answer{Decision: Allow})
	case p.mode == ModeHeadless:
		return decided(Answer{Decision: Deny, Reason: "delegation needs approval and a headless run cannot ask; re-run with --allow task (or --yolo) to let sub-agents run"})
	case p.remembered(p.rememberedTypes, typeName):
		emit(ApprovalResolved{Meta: stamp(), Answer: Answer{Decision: Allow}, By: "remembered"})
		return decided(Answer{Decision: Allow})
	}
	req := event.NewApprovalRequest(p.ids.approval(), ApproveDelegation)
	req.CallID, req.Delegation = stamp().TaskCall, preview
	emit(ApprovalRequested{Meta: stamp(), Request: req})
	return func(ctx context.Context) Answer {
		ans := p.await(ctx, emit, stamp, req)
		if ans.Decision == AllowAlways {
			p.remember(p.rememberedTypes, typeName)
		}
		return ans
	}, true
}

// ask publishes req and waits for the answer or the end of ctx.
func (p *permissions) ask(ctx context.Context, emit func(Event), stamp func() Meta, req *ApprovalRequest) Answer {
	emit(ApprovalRequested{Meta: stamp(), Request: req})
	return p.await(ctx, emit, stamp, req)
}

// await waits for a published request's answer or the end of ctx, and
// records who answered.
func (p *permissions) await(ctx context.Context, emit func(Event), stamp func() Meta, req *ApprovalRequest) Answer {
	ans := req.Wait(ctx)
	by := "person"
	if ctx.Err() != nil {
		by = "cancellation"
	}
	emit(ApprovalResolved{Meta: stamp(), RequestID: req.ID, Answer: ans, By: by})
	return ans
}

// remembered reports whether key was allowed for the rest of the session.
func (p *permissions) remembered(set map[string]bool, key string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return set[key]
}

// remember allows key for the rest of the session.
func (p *permissions) remember(set map[string]bool, key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	set[key] = true
}
