package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// A child's life once its task call is prepared: approval, a slot, its
// run within its timeout, and its end, which the waiting call or the
// session's delivery takes.

// launch runs the approved child in a goroutine the session waits for;
// a closing session ends it at once.
func (p *pendingChild) launch(prompt string) {
	if err := p.d.s.goChild(func() { p.finish(p.runApproved(prompt)) }); err != nil {
		p.place.release()
		p.finish(Result{Status: event.StatusInterrupted, Reason: errSessionClosed.Error()})
	}
}

// approve waits for the answer and returns the prompt to run, or the
// result of a child that never starts.
func (p *pendingChild) approve() (string, Result, bool) {
	ans := p.answer(p.ctx)
	if p.ctx.Err() != nil {
		p.leaveLine()
		status, reason := classifyRunError(p.ctx, p.ctx.Err())
		return "", Result{Status: status, Reason: reason + " before the delegation was answered"}, false
	}
	if ans.Decision == event.Deny {
		p.leaveLine()
		reason := ans.Reason
		if reason == "" {
			reason = "the person denied this delegation"
		}
		return "", Result{Status: event.StatusDenied, Reason: reason}, false
	}
	if p.place == nil {
		p.takePlace()
	}
	if ans.EditedPrompt != "" {
		return ans.EditedPrompt, Result{}, true
	}
	return p.args.Prompt, Result{}, true
}

// leaveLine gives up the child's place in the slot line, if it took one.
func (p *pendingChild) leaveLine() {
	if p.place != nil {
		p.place.release()
	}
}

// runApproved waits for a slot, then runs the child within its timeout.
func (p *pendingChild) runApproved(prompt string) Result {
	d, child, spec := p.d, p.child, p.spec
	defer p.place.release()
	if err := p.place.wait(p.ctx); err != nil {
		status, reason := classifyRunError(p.ctx, err)
		return Result{Status: status, Reason: reason}
	}
	runCtx, stop := context.WithTimeout(p.ctx, spec.timeout)
	defer stop()
	started := event.AgentStarted{Meta: child.stamp(), Prompt: prompt, Model: spec.model, Tools: spec.tools.Names(), MaxSteps: spec.maxSteps, Timeout: spec.timeout,
		Transcript: d.s.rec.fileOf(child.meta.Agent), Sandbox: spec.box.Describe(), TypeName: spec.typ.Name}
	if p.prev != nil {
		started.Continues = p.prev.id
	}
	child.emit(started)
	d.s.childStarted(child.meta.Agent)
	if canWrite(spec.tools) {
		d.writers.Add(1)
		defer d.writers.Add(-1)
	}
	if p.iso.iso != nil {
		defer d.s.worktreeRoot(spec.workspace, child.meta.Number, spec.typ.Name)()
	}
	res := child.Run(runCtx, d.s.hooks.subagentStart(runCtx, child, prompt))
	if res.Status == event.StatusTimedOut {
		res.Reason = fmt.Sprintf("timed out after %s", spec.timeout.Round(time.Second))
	}
	return res
}

// finish reports the child's end and settles its run: the waiting call
// takes the result, or the session delivers it later.
func (p *pendingChild) finish(res Result) {
	d, child := p.d, p.child
	var change *event.Change
	if p.iso.iso != nil {
		var note string
		change, note = p.iso.iso.finish()
		res.Notes = append(res.Notes, note)
	}
	result := formatChildResult(res, d.limits.ResultChars)
	child.emit(event.AgentFinished{Meta: child.stamp(), Status: res.Status, Reason: res.Reason, Stats: res.Stats, Text: res.Text, Result: result,
		Transcript: d.s.rec.fileOf(child.meta.Agent), Change: change})
	d.unregister(child.meta.Agent)
	p.cancel(nil)
	p.entry.unlink()
	if res.Stats.Steps == 0 {
		unclaim(p.prev, child.meta.Agent) // it never ran: the earlier child is still the latest
	}
	d.s.settleRun(p.entry, res, result)
}
