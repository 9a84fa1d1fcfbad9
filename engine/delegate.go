package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// delegator starts children for task calls, bounds how many run at once,
// and keeps a handle on each so the person can stop or message it.
type delegator struct {
	s             *Session
	types         *agenttypes.Registry
	base          *tools.Set
	catalog       *llm.Catalog
	limits        Limits
	subagentModel string
	policyAllow   []string
	policyDeny    []string
	workspace     string
	agentsMD      string
	// ws, toolLimits, box and network build each child's run_command.
	ws         *tools.Workspace
	toolLimits tools.Limits
	box        sandbox.Policy
	network    string

	// slots bound running children per depth: a child waiting on its own
	// children holds its slot, so grandchildren need slots of their own.
	slotsMu sync.Mutex
	slots   map[int]*slotQueue

	mu       sync.Mutex
	children map[AgentID]*childHandle
}

// childHandle lets the session reach a child while it is pending or running.
type childHandle struct {
	agent  *Agent
	cancel context.CancelCauseFunc
}

// pendingChild is a task call checked and given its id, waiting to be
// approved and run.
type pendingChild struct {
	d      *delegator
	ctx    context.Context
	cancel context.CancelCauseFunc
	child  *Agent
	spec   childSpec
	args   taskArgs
	// answer waits for the approval asked for in prepare.
	answer func(context.Context) Answer
	// place is the child's place in the slot line, taken in prepare when
	// no person has to approve it (nil until then).
	place *ticket
}

// prepare checks a task call for parent and readies its child: the type,
// tools, model and limits resolved, an id given and the handle registered
// so the person can stop it from now on. Parents call it for their task
// calls one by one, so children are numbered in the order requested. Its
// errors go back to the model.
func (d *delegator) prepare(ctx context.Context, parent *Agent, raw json.RawMessage) (*pendingChild, error) {
	args, err := parseTaskArgs(raw, d.types)
	if err != nil {
		return nil, err
	}
	spec, err := d.resolve(ctx, args, parent.model())
	if err != nil {
		return nil, err
	}
	id, _ := d.s.ids.child(spec.typ.Name)
	ctx, cancel := context.WithCancelCause(ctx)
	child := d.newChild(Meta{Agent: id, Parent: parent.meta.Agent, AgentType: spec.typ.DisplayName, Description: args.Description}, spec, parent.depth+1)
	d.register(id, &childHandle{agent: child, cancel: cancel})
	tokens, cost, priced := d.estimate(spec, args.Prompt)
	preview := &DelegationPreview{
		AgentType: spec.typ.DisplayName, Description: args.Description, Prompt: args.Prompt,
		Tools: spec.tools.Names(), DroppedTools: spec.typ.DroppedTools, Model: spec.model, ModelWhy: spec.modelWhy, MaxSteps: spec.maxSteps, Timeout: spec.timeout,
		EstimatedTokens: tokens, EstimatedCost: cost, CostKnown: priced, Rules: spec.shown,
	}
	answer, asked := d.s.perms.requestDelegation(child, spec.typ.Name, preview)
	pending := &pendingChild{d: d, ctx: ctx, cancel: cancel, child: child, spec: spec, args: args, answer: answer}
	if !asked {
		pending.takePlace()
	}
	return pending, nil
}

// takePlace puts the child in line for a slot, saying so when it has to
// wait.
func (p *pendingChild) takePlace() {
	p.place = p.d.slotsAt(p.child.depth).enqueue()
	if pos := p.place.position(); pos > 0 {
		p.child.emit(AgentQueued{Meta: p.child.stamp(), Position: pos})
	}
}

// run asks for approval, waits for a slot, runs the child and returns its
// bounded final text plus a status line. The child's usage is returned
// separately so the parent counts it exactly once.
func (p *pendingChild) run() (tools.Result, Usage, error) {
	d, child := p.d, p.child
	defer p.cancel(nil)
	defer d.unregister(child.meta.Agent)
	res := d.approveAndRun(p.ctx, child, p)
	result := formatChildResult(res, d.limits.ResultChars)
	child.emit(AgentFinished{Meta: child.stamp(), Status: res.Status, Reason: res.Reason, Stats: res.Stats, Text: res.Text, Result: result,
		Transcript: d.s.rec.fileOf(child.meta.Agent)})
	summary := fmt.Sprintf("%s · %s", res.Status, res.Stats.Line())
	return tools.Result{Output: result, Summary: summary}, res.Stats.Usage, nil
}

// approveAndRun waits for approval and a slot, then runs the child.
func (d *delegator) approveAndRun(ctx context.Context, child *Agent, p *pendingChild) Result {
	spec, args := p.spec, p.args
	if p.place != nil {
		defer p.place.release()
	}
	ans := p.answer(ctx)
	if ctx.Err() != nil {
		status, reason := classifyRunError(ctx, ctx.Err())
		return Result{Status: status, Reason: reason + " before the delegation was answered"}
	}
	if ans.Decision == Deny {
		reason := ans.Reason
		if reason == "" {
			reason = "the person denied this delegation"
		}
		return Result{Status: StatusDenied, Reason: reason}
	}
	prompt := args.Prompt
	if ans.EditedPrompt != "" {
		prompt = ans.EditedPrompt
	}
	if p.place == nil {
		p.takePlace()
		defer p.place.release()
	}
	err := p.place.wait(ctx)
	if err != nil {
		status, reason := classifyRunError(ctx, err)
		return Result{Status: status, Reason: reason}
	}
	runCtx, stop := context.WithTimeout(ctx, spec.timeout)
	defer stop()
	child.emit(AgentStarted{Meta: child.stamp(), Prompt: prompt, Model: spec.model, Tools: spec.tools.Names(), MaxSteps: spec.maxSteps, Timeout: spec.timeout,
		Transcript: d.s.rec.fileOf(child.meta.Agent), Sandbox: spec.box.Describe()})
	d.s.childStarted(child.meta.Agent)
	res := child.Run(runCtx, prompt)
	if res.Status == StatusTimedOut {
		res.Reason = fmt.Sprintf("timed out after %s", spec.timeout.Round(time.Second))
	}
	return res
}

// newChild builds a child agent with a fresh history: its system prompt
// and nothing of the parent's conversation.
func (d *delegator) newChild(meta Meta, spec childSpec, depth int) *Agent {
	set := spec.tools
	if depth < d.limits.MaxDepth {
		set = set.With(&taskTool{d: d})
	}
	model := spec.model
	system := openai.ChatCompletionMessage{Role: openai.ChatMessageRoleSystem, Content: spec.system}
	record := d.s.recordMessages(meta.Agent)
	record(system)
	fallback := d.subagentModel
	if fallback == "" || fallback == model {
		fallback = d.s.Model()
	}
	return &Agent{
		meta: meta, client: d.s.cfg.Client, catalog: d.catalog,
		model: func() string { return model }, effort: spec.typ.Effort,
		temperature: spec.typ.Temperature, topP: spec.typ.TopP,
		tools: set, exec: &executor{perms: d.s.perms, outputChars: d.limits.ToolOutputChars,
			context: newNestedContext(d.workspace, "AGENTS.md")},
		rules:    &agentRules{own: spec.rules},
		maxSteps: spec.maxSteps, summarizeAtLimit: true, depth: depth, fallbackModel: fallback,
		history: []openai.ChatCompletionMessage{system},
		emit:    d.s.emit, record: record, requests: d.s.cfg.requestPolicy(),
	}
}

// slotsAt returns the slot queue of children at depth.
func (d *delegator) slotsAt(depth int) *slotQueue {
	d.slotsMu.Lock()
	defer d.slotsMu.Unlock()
	q, ok := d.slots[depth]
	if !ok {
		q = newSlotQueue(d.limits.MaxConcurrent)
		d.slots[depth] = q
	}
	return q
}

// register records a live child.
func (d *delegator) register(id AgentID, h *childHandle) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.children[id] = h
}

// unregister forgets a child that ended.
func (d *delegator) unregister(id AgentID) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.children, id)
}

// handle returns a live child's handle.
func (d *delegator) handle(id AgentID) (*childHandle, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	h, ok := d.children[id]
	if !ok {
		return nil, fmt.Errorf("no running sub-agent %q", id)
	}
	return h, nil
}

// stopAll stops every live child (used when the person stops them all).
func (d *delegator) stopAll() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, h := range d.children {
		h.cancel(errStopped)
	}
}
