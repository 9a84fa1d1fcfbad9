package engine

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"sync/atomic"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
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
	children map[event.AgentID]*childHandle
	// writers counts the running children that can change files, for the
	// auto isolation rule.
	writers atomic.Int32
	// runs are every child of the session, live or ended (restored ones
	// too), by id and in the order requested.
	runs  map[event.AgentID]*childRun
	order []*childRun
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
	// iso is the child's worktree, when it has one.
	iso    isolation
	extras taskExtras
	entry  *childRun
	// prev is the finished child a follow-up continues (nil: none).
	prev *childRun
	// answer waits for the approval asked for in prepare.
	answer func(context.Context) event.Answer
	// place is the child's place in the slot line, taken in prepare when
	// no person has to approve it (nil until then).
	place *ticket
}

// prepare checks a task call for parent and readies its child: the type,
// tools, model and limits resolved, an id given and the handle registered
// so the person can stop it from now on. Parents call it for their task
// calls one by one, so children are numbered in the order requested. Its
// errors go back to the model.
func (d *delegator) prepare(ctx context.Context, parent *Agent, callID string, raw json.RawMessage) (*pendingChild, error) {
	x, err := parseTaskExtras(raw)
	if err != nil {
		return nil, err
	}
	if x.Background && parent.meta.Agent != event.MainAgent {
		return nil, errors.New("background: only the main agent runs sub-agents in the background; call task without it and wait for the result")
	}
	if x.Background {
		if err := d.s.claimBackground(); err != nil {
			return nil, err
		}
	}
	p, err := d.ready(ctx, parent, callID, raw, x)
	if err != nil {
		return nil, err
	}
	p.ask()
	return p, nil
}

// ready resolves a call, or the child a follow-up continues, gives the
// child its id and registers it. The child's context is the session's,
// tied to the call's until the call lets go of it (background).
func (d *delegator) ready(ctx context.Context, parent *Agent, callID string, raw json.RawMessage, x taskExtras) (*pendingChild, error) {
	var (
		args taskArgs
		spec childSpec
		seed []openai.ChatCompletionMessage
		prev *childRun
		err  error
	)
	isoArg, err := parseIsolation(raw)
	if err != nil {
		return nil, err
	}
	if x.Resume != "" {
		args, spec, seed, prev, err = d.followUp(ctx, x.Resume, raw)
	} else if args, err = parseTaskArgs(raw, d.types); err == nil {
		spec, err = d.resolve(ctx, args, parent.model())
	}
	if err != nil {
		return nil, err
	}
	id, n := d.s.ids.child(spec.typ.Name)
	if err := claim(prev, id); err != nil {
		return nil, err
	}
	childCtx, cancel := context.WithCancelCause(d.s.ctx)
	meta := event.Meta{Agent: id, Parent: parent.meta.Agent, Number: n, TaskCall: callID, AgentType: spec.typ.DisplayName, Description: args.Description}
	iso, err := d.isolate(ctx, meta, args, isoArg, parent, &spec)
	if err != nil {
		cancel(err)
		unclaim(prev, id)
		return nil, err
	}
	run := newChildRun(id, n, meta)
	run.unlink = context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })
	child := d.newChild(meta, spec, parent.depth+1, seed)
	child.emit = run.observe(child.emit)
	run.spec, run.agent = &spec, child
	d.register(id, &childHandle{agent: child, cancel: cancel}, run)
	return &pendingChild{d: d, ctx: childCtx, cancel: cancel, child: child, spec: spec, args: args, extras: x, entry: run, prev: prev, iso: iso}, nil
}

// ask publishes the delegation card (or decides it by mode or a
// remembered choice) and, when nobody has to answer, takes the child's
// place in line.
func (p *pendingChild) ask() {
	d, spec, args := p.d, p.spec, p.args
	tokens, cost, priced := d.estimate(spec, args.Prompt)
	preview := &event.DelegationPreview{
		AgentType: spec.typ.DisplayName, Description: args.Description, Prompt: args.Prompt,
		Tools: spec.tools.Names(), DroppedTools: spec.typ.DroppedTools, Model: spec.model, ModelWhy: spec.modelWhy, MaxSteps: spec.maxSteps, Timeout: spec.timeout,
		EstimatedTokens: tokens, EstimatedCost: cost, CostKnown: priced, Rules: spec.shown, Background: p.extras.Background,
		Withheld: withheldNote(spec),
	}
	if p.prev != nil {
		preview.Continues = p.prev.id
	}
	p.iso.preview(preview)
	if p.iso.note != "" {
		p.child.emit(event.Notice{Meta: p.child.stamp(), Text: p.iso.note})
	}
	answer, asked := d.s.perms.requestDelegation(p.child, spec.typ.Name, preview)
	p.answer = answer
	if !asked {
		p.takePlace()
	}
}

// takePlace puts the child in line for a slot, saying so when it has to
// wait.
func (p *pendingChild) takePlace() {
	p.place = p.d.slotsAt(p.child.depth).enqueue()
	if pos := p.place.position(); pos > 0 {
		p.child.emit(event.AgentQueued{Meta: p.child.stamp(), Position: pos})
	}
}

// run waits for approval and starts the child in a goroutine of its own.
// A background call returns at once with the child's id; otherwise it
// waits for the child's bounded final text plus a status line, or until
// the person sends the child to the background. The result carries the
// child's usage so the parent counts it exactly once.
func (p *pendingChild) run() tools.Result {
	prompt, res, ok := p.approve()
	if !ok {
		p.finish(res)
		return p.entry.toolResult()
	}
	p.entry.approve()
	if p.extras.Background {
		_ = p.d.s.detach(p.entry, "task") // it has not started, so it cannot have ended
	}
	p.launch(prompt)
	select {
	case <-p.entry.finished:
	case <-p.entry.detached:
	}
	if p.entry.isBackground() {
		return p.entry.startedResult()
	}
	return p.entry.toolResult()
}

// newChild builds a child agent with a fresh history (its system prompt
// and nothing of the parent's conversation), or, for a follow-up, the
// history of the child it continues.
func (d *delegator) newChild(meta event.Meta, spec childSpec, depth int, seed []openai.ChatCompletionMessage) *Agent {
	set := spec.tools
	// A worktree child delegates nothing: its children would work in
	// the person's tree, not its own.
	if depth < d.limits.MaxDepth && spec.workspace == d.workspace {
		set = set.With(&taskTool{d: d})
	}
	model := spec.model
	if len(seed) == 0 {
		seed = []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleSystem, Content: spec.system}}
	}
	record := d.s.recordMessages(meta.Agent)
	for _, m := range seed {
		record(m)
	}
	fallback := d.subagentModel
	if fallback == "" || fallback == model {
		fallback = d.s.Model()
	}
	return &Agent{
		meta: meta, client: d.s.cfg.Client, catalog: d.catalog,
		model: func() string { return model }, effort: spec.typ.Effort,
		temperature: spec.typ.Temperature, topP: spec.typ.TopP,
		tools: set, instructions: d.s.mcpInstructions(mcpServersOf(set)), exec: &executor{perms: d.s.perms, outputChars: d.limits.ToolOutputChars, hooks: d.s.hooks,
			context: newNestedContext(spec.workspace, d.limits.ContextFileBytes, "AGENTS.md")},
		skills:   newSkillState(spec.skills.offered, spec.skills.preload, d.s.countSkillLoad),
		typeName: spec.typ.Name,
		rules:    &agentRules{own: spec.rules},
		maxSteps: spec.maxSteps, summarizeAtLimit: true, depth: depth, fallbackModel: fallback,
		history: slices.Clone(seed),
		emit:    d.s.emit, record: record, requests: d.s.cfg.requestPolicy(),
		reviewNotes: &noteBox{}, worktree: worktreeOf(spec.workspace, d.workspace),
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
