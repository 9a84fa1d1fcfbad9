package child

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// A child's life: prepare (its task call read once into a spec, an id,
// its record), ask (the card, or a decision by rule), queue (a slot), run
// (placed by its runner within its timeout) and finish (its change, its
// result, settled for the waiting call or delivered later).

// prepare reads a task call for its caller and readies its child: spec,
// id, record (the person can stop it from now on) and card. Callers
// prepare their calls one by one, so children are numbered in the order
// requested. Its errors go back to the model.
func (m *Manager) prepare(ctx context.Context, call agent.Call) (*Child, error) {
	m.delegated(call)
	tc, err := readTaskCall(call.Args, m.opts.Types)
	if err != nil {
		return nil, err
	}
	if tc.Background && call.Caller.Meta.Agent != event.MainAgent {
		return nil, errors.New("background: only the main agent runs sub-agents in the background; call task without it and wait for the result")
	}
	if tc.Background {
		if err := m.claimBackground(); err != nil {
			return nil, err
		}
	}
	c, err := m.ready(ctx, tc, call)
	if err != nil {
		return nil, err
	}
	c.ask()
	return c, nil
}

// ready resolves a call, or the child a follow-up continues, gives the
// child its id, its worktree if it gets one, and its record. Its context
// is the session's, tied to the call's until the call lets go of it.
func (m *Manager) ready(ctx context.Context, tc taskCall, call agent.Call) (*Child, error) {
	var (
		spec Spec
		seed []openai.ChatCompletionMessage
		prev *Child
		err  error
	)
	if tc.Resume != "" {
		spec, seed, prev, err = m.followUp(tc, call.Caller)
	} else {
		spec, err = m.resolve(ctx, tc, call.Caller)
	}
	if err != nil {
		return nil, err
	}
	id, n := m.ids.next(spec.Type.Name)
	if err := claim(prev, id); err != nil {
		return nil, err
	}
	description := tc.Description
	if prev != nil {
		description = prev.followUpDescription(tc.Description)
	}
	spec.Meta = event.Meta{Agent: id, Parent: call.Caller.Meta.Agent, Number: n, TaskCall: call.ID, AgentType: spec.Type.DisplayName, Description: description}
	c := newChild(m, spec.Meta)
	c.ctx, c.cancel = context.WithCancelCause(m.ctx)
	c.unlink = context.AfterFunc(ctx, func() { c.cancel(context.Cause(ctx)) })
	c.prev, c.ws = prev, m.opts.Workspace
	if prev != nil {
		c.iso, err = m.adopt(ctx, c, prev, &spec)
	}
	if c.iso == nil && err == nil {
		c.iso, c.isoNote, err = m.isolate(ctx, c, tc, call.Batch, &spec)
	}
	if err != nil {
		c.cancel(err)
		c.unlink()
		unclaim(prev, id)
		return nil, err
	}
	if len(seed) == 0 {
		seed = []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleSystem, Content: spec.System}}
	}
	// The seed goes to the child's transcript when it starts (see
	// runApproved), outside the section in which the task calls of one
	// message are readied one by one: 64 children, 40 ms less in line.
	c.spec, c.seed, c.grants = &spec, seed, permission.NewGrants(spec.Rules)
	m.register(c)
	return c, nil
}

// ask publishes the delegation card (or decides it by mode or a
// remembered choice) and, when nobody has to answer, takes the child's
// place in line.
func (c *Child) ask() {
	spec := c.spec
	tokens, cost, priced := c.m.estimate(*spec)
	preview := &event.DelegationPreview{
		AgentType: spec.Type.DisplayName, Description: c.meta.Description, Prompt: spec.Prompt,
		Tools: spec.toolNames(), DroppedTools: spec.Type.DroppedTools, Model: spec.Model, ModelWhy: spec.ModelWhy, MaxSteps: spec.MaxSteps, Timeout: spec.Timeout, Budget: spec.Budget,
		EstimatedTokens: tokens, EstimatedCost: cost, CostKnown: priced, Rules: spec.Shown, Background: spec.Background,
		Withheld: spec.withheldNote(),
	}
	if c.prev != nil {
		preview.Continues = c.prev.id
	}
	if a := spec.Type.ACP; a != nil {
		preview.ACPAgent = a.CommandLine()
		if names := a.EnvNames(); len(names) > 0 {
			preview.ACPAgent += " · env " + strings.Join(names, " ")
		}
	}
	preview.Isolation, preview.IsolationNote, preview.Runs = event.IsolationShared, c.isoNote, spec.Where
	if c.iso != nil {
		preview.Isolation, preview.From = event.IsolationWorktree, c.iso.from+" · "+c.iso.tree.Dir
		preview.Verify = spec.Verify
	}
	if c.isoNote != "" {
		c.emit(event.Notice{Meta: c.stamp(), Text: c.isoNote})
	}
	answer, asked := c.m.opts.Policy.Delegate(c.who(), c.grants, TaskToolName, spec.Type.Name, preview)
	c.answer, c.asked = answer, asked
	if !asked {
		c.takePlace()
	}
}

// takePlace puts the child in line for a slot, saying so when it has to
// wait.
func (c *Child) takePlace() {
	c.place = c.m.slotsAt(c.spec.Runner, c.spec.Depth).enqueue()
	if pos := c.place.position(); pos > 0 {
		c.emit(event.AgentQueued{Meta: c.stamp(), Position: pos})
	}
}

// run waits for approval and starts the child on a goroutine of its own.
// A background call returns at once with the child's id; otherwise it
// waits for the child's bounded final text plus a status line, or until
// the person sends the child to the background. The result carries the
// child's usage so the parent counts it exactly once.
func (c *Child) run() tools.Result {
	prompt, res, ok := c.awaitApproval()
	if !ok {
		c.finish(Ending{Result: res})
		return c.toolResult()
	}
	c.approve()
	if c.spec.Background {
		_ = c.m.detach(c, "task") // it has not started, so it cannot have ended
	}
	c.launch(prompt)
	select {
	case <-c.finished:
	case <-c.detached:
	}
	if c.isBackground() {
		return c.startedResult()
	}
	return c.toolResult()
}

// awaitApproval waits for the answer and returns the prompt to run, or
// the result of a child that never starts.
func (c *Child) awaitApproval() (string, agent.Result, bool) {
	ans := c.answer(c.ctx)
	if c.ctx.Err() != nil {
		c.leaveLine()
		status, reason := agent.Classify(c.ctx, c.ctx.Err())
		return "", agent.Result{Status: status, Reason: reason + " before the delegation was answered"}, false
	}
	if ans.Decision == event.Deny {
		c.leaveLine()
		reason := ans.Reason
		switch {
		case !c.asked: // a rule or the mode denied it, as its reason says
		case reason == "":
			reason = "the person denied this delegation"
			c.tellParent("denied the delegation, giving no reason")
		default:
			c.tellParent("denied the delegation: " + clip(ans.Reason, 500))
		}
		return "", agent.Result{Status: event.StatusDenied, Reason: reason}, false
	}
	if c.place == nil {
		c.takePlace()
	}
	c.applyEdits(ans)
	if ans.EditedPrompt != "" && ans.EditedPrompt != c.spec.Prompt {
		c.tellParent(fmt.Sprintf("edited the prompt; the sub-agent ran with: %q", clip(ans.EditedPrompt, 2000)))
		return ans.EditedPrompt, agent.Result{}, true
	}
	return c.spec.Prompt, agent.Result{}, true
}

// leaveLine gives up the child's place in the slot line, if it took one.
func (c *Child) leaveLine() {
	if c.place != nil {
		c.place.release()
	}
}

// launch runs the approved child on a goroutine the session waits for;
// a closing session ends it at once.
func (c *Child) launch(prompt string) {
	if err := c.m.sess.Go(func() { c.finish(c.runApproved(prompt)) }); err != nil {
		c.place.release()
		c.finish(Ending{Result: agent.Result{Status: event.StatusInterrupted, Reason: agent.ErrSessionEnded.Error()}})
	}
}

// runApproved waits for a slot, then has the child's runner run it
// within its timeout.
func (c *Child) runApproved(prompt string) Ending {
	m, spec := c.m, c.spec
	defer c.place.release()
	if err := c.place.wait(c.ctx); err != nil {
		status, reason := agent.Classify(c.ctx, err)
		return Ending{Result: agent.Result{Status: status, Reason: reason}}
	}
	runCtx, stop := context.WithTimeout(c.ctx, HardTimeout(spec.Timeout))
	defer stop()
	m.countRunning(1)
	defer m.countRunning(-1)
	for _, msg := range c.seed {
		m.sess.Record(c.id, msg)
	}
	started := event.AgentStarted{Meta: c.stamp(), Prompt: prompt, Model: spec.Model, Tools: spec.toolNames(), MaxSteps: spec.MaxSteps, Timeout: spec.Timeout, Budget: spec.Budget,
		Transcript: m.sess.TranscriptFile(c.id), TypeName: spec.Type.Name, Runner: spec.Runner}
	if slices.Contains(spec.Toolbox.Names, "run_command") {
		// Describing the sandbox may start its isolation probe, a second
		// process: a child without commands has no sandbox to describe.
		started.Sandbox = spec.Toolbox.Sandbox.Describe()
	}
	if c.prev != nil {
		started.Continues = c.prev.id
	}
	if a, ok := m.opts.Runners[spec.Runner].(Attacher); ok {
		started.Detachable = a.Detachable(Job{Spec: *spec, Home: m.home(c.id)})
	}
	c.emit(started)
	m.sess.Started(c.id)
	if canWrite(spec.Toolbox.Names) {
		m.writers.Add(1)
		defer m.writers.Add(-1)
	}
	if c.iso != nil && m.opts.WorktreeRoot != nil {
		defer m.opts.WorktreeRoot(spec.Workspace, c.meta.Number, spec.Type.Name)()
	}
	hooks := c.hooks()
	if hooks != nil {
		prompt = hooks.Start(runCtx, prompt)
	}
	begin := time.Now()
	h, err := c.start(runCtx, prompt, hooks)
	if err != nil {
		return Ending{Result: agent.Result{Status: event.StatusFailed, Reason: err.Error()}}
	}
	if _, late := m.opts.Runners[spec.Runner].(LatePlacer); !late {
		c.emit(event.AgentPlaced{Meta: c.stamp(), Where: spec.Where, Latency: time.Since(begin)})
	}
	<-h.Done()
	end := h.Ending()
	c.mu.Lock()
	c.handle = nil
	c.mu.Unlock()
	if end.Status == event.StatusTimedOut {
		end.Reason = fmt.Sprintf("timed out after %s", spec.Timeout.Round(time.Second))
	}
	return end
}

// reportGrace is the time a child has for its final report once its own
// time is up; past it the child is cut off where it is.
const reportGrace = 60 * time.Second

// HardTimeout is when a child with timeout is cut off: its time, then
// the grace of its final report.
func HardTimeout(timeout time.Duration) time.Duration { return timeout + reportGrace }

// start places the child with its runner. The messages the person sent
// before go with it, and later ones reach its handle.
func (c *Child) start(ctx context.Context, prompt string, hooks Hooks) (Handle, error) {
	m, spec := c.m, c.spec
	job := c.job(prompt, hooks)
	c.mu.Lock()
	defer c.mu.Unlock()
	job.Steers, c.steers = c.steers, nil
	h, err := m.opts.Runners[spec.Runner].Start(ctx, job)
	if err != nil {
		return nil, fmt.Errorf("start on the %s runner: %w", spec.Runner, err)
	}
	c.handle = h
	return h, nil
}

// job is what the child's runner places: its spec, prompt and history,
// and its way back to the session.
func (c *Child) job(prompt string, hooks Hooks) Job {
	m, spec := c.m, c.spec
	fallback := m.opts.SubagentModel
	if fallback == "" || fallback == spec.Model {
		fallback = m.sess.MainModel()
	}
	job := Job{Spec: *spec, Prompt: prompt, History: c.seed, Workspace: c.ws, Home: m.home(c.id),
		Loop: Loop{Client: m.opts.Client, Catalog: m.opts.Catalog, FallbackModel: fallback, Requests: m.opts.Requests,
			OutputChars: m.opts.Limits.ToolOutputChars, ContextFileBytes: m.opts.Limits.ContextFileBytes, SkillLoaded: m.opts.SkillLoaded,
			Instructions: m.instructions(*spec)},
		Link: Link{Emit: c.emit, Record: func(msg openai.ChatCompletionMessage) { m.sess.Record(c.id, msg) },
			Authorize: m.opts.Policy.For(c.who(), c.grants)}}
	if hooks != nil {
		job.Link.Hooks = hooks
	}
	// A worktree child delegates nothing: its children would work in
	// the person's tree, not its own.
	if spec.Depth < m.opts.Limits.MaxDepth && spec.Worktree == "" {
		job.Delegate = &taskTool{m: m}
	}
	return job
}

// hooks are the session's hook commands bound to the child (nil: none).
func (c *Child) hooks() Hooks {
	if c.m.opts.Hooks == nil {
		return nil
	}
	return c.m.opts.Hooks(c.meta, c.spec.Type.Name, c.emit)
}

// finish reports the child's end and settles it: the waiting call takes
// the result, or the session delivers it later.
func (c *Child) finish(end Ending) {
	m := c.m
	if end.Detached {
		c.let(end)
		return
	}
	var change *event.Change
	if c.iso != nil {
		var note string
		change, note = c.iso.finish(c.verifier(), c.ws)
		end.Notes = append(end.Notes, note)
	}
	c.mu.Lock()
	person := c.personNotes
	c.mu.Unlock()
	result := formatResult(end.Result, person, m.opts.Limits.ResultChars)
	use := event.UseOf(end.Stats, c.spec.Budget, c.spec.MaxSteps, c.spec.Timeout)
	c.emit(event.AgentFinished{Meta: c.stamp(), Status: end.Status, Reason: end.Reason, Stats: end.Stats, Text: end.Text, Result: result, Use: use, Person: person,
		Transcript: m.sess.TranscriptFile(c.id), Change: change})
	if c.iso != nil {
		c.iso.ready() // before the parent's next step
	}
	c.cancel(nil)
	c.unlink()
	if end.Stats.Steps == 0 {
		unclaim(c.prev, c.id) // it never ran: the earlier child is still the latest
	}
	m.settle(c, end, result)
}

// countRunning adds delta to the children running and tells the
// configured listener.
func (m *Manager) countRunning(delta int32) {
	n := m.running.Add(delta)
	if m.opts.Running != nil {
		m.opts.Running(int(n))
	}
}
