package pane

import (
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/convo"
	"github.com/seed-e4e525a6/baton/ui/termtext"
	"github.com/seed-e4e525a6/baton/ui/todos"
)

// Apply folds one event into the pane. Events of other agents, kinds the
// pane does not draw, and every event after the child ended are ignored:
// a finished pane is a record and never changes, except for what the
// review of its change decided.
func (p *Pane) Apply(ev event.Event) {
	if e, ok := ev.(event.ReviewFinished); ok && e.Agent == p.meta.Agent {
		p.reviewed(e)
		p.activity.version++
		return
	}
	if ev == nil || ev.EventMeta().Agent != p.meta.Agent || p.state.Finished() {
		return
	}
	p.fillMeta(ev.EventMeta())
	p.convo.Apply(ev)
	switch e := ev.(type) {
	case event.ApprovalRequested:
		p.approvalRequested(e)
	case event.ApprovalResolved:
		p.approvalResolved(e)
	case event.AgentQueued:
		p.state = Queued
	case event.AgentStarted:
		p.agentStarted(e)
	case event.AgentPlaced:
		p.where, p.startLatency = e.Where, e.Latency
	case event.StepStarted:
		p.step = e.Step
		if e.Max > 0 {
			p.maxSteps = e.Max
		}
	case event.MessageDone:
		p.prose.stream = nil // the next message streams afresh
	case event.TextDelta, event.ReasoningDelta, event.ToolStarted, event.AgentMessage, event.Notice, event.Retrying:
		// the conversation has them
	case event.ToolFinished:
		p.tools++
	case event.UsageReported:
		p.usage = usageOf(e.Total)
	case event.ErrorOccurred:
		p.failure = oneLine(e.Message)
	case event.TodosUpdated:
		p.todos = todos.Clean(e.Todos, termtext.Clean)
	case event.AgentFinished:
		p.finish(e)
	case event.AgentBackgrounded:
		p.background = true
	default:
		return
	}
	p.activity.version++
}

// fillMeta takes the type and description from the child's events when
// the pane was made without them.
func (p *Pane) fillMeta(m event.Meta) {
	if p.meta.AgentType == "" && m.AgentType != "" {
		p.meta.AgentType = m.AgentType
		p.convo.SetName(m.AgentType)
		p.label = p.styles.Agent(colourIndex(m.AgentType))
	}
	if p.meta.Description == "" {
		p.meta.Description = m.Description
	}
	if p.meta.Parent == "" {
		p.meta.Parent = m.Parent
	}
}

// approvalRequested notes a question to the person: the delegation itself
// before the child starts, or a tool permission while it runs.
func (p *Pane) approvalRequested(e event.ApprovalRequested) {
	req := e.Request
	if req == nil {
		return
	}
	switch req.Kind {
	case event.ApproveDelegation:
		p.state = AwaitingApproval
		if d := req.Delegation; d != nil {
			p.model, p.maxSteps, p.timeout, p.budget, p.where = d.Model, d.MaxSteps, d.Timeout, d.Budget, termtext.Clean(d.Runs)
			p.toolNames = append([]string(nil), d.Tools...)
		}
	case event.ApproveTool:
		if p.asking == nil {
			p.asking = map[string]string{}
		}
		p.asking[req.ID] = req.CallID
		p.state = WaitingForApproval
	}
}

// approvalResolved moves on once the person answered. A denied delegation
// keeps waiting for its AgentFinished, which carries the reason.
func (p *Pane) approvalResolved(e event.ApprovalResolved) {
	switch p.state {
	case AwaitingApproval:
		if e.Answer.Decision != event.Deny {
			p.state = Queued
		}
	case WaitingForApproval:
		delete(p.asking, e.RequestID)
		if len(p.asking) == 0 {
			p.state = Running
		}
	}
}

// agentStarted records what the child runs with and starts its clock.
func (p *Pane) agentStarted(e event.AgentStarted) {
	p.state = Running
	p.started = p.when(e.Time)
	p.model, p.maxSteps, p.timeout, p.budget = e.Model, e.MaxSteps, e.Timeout, e.Budget
	p.toolNames = append([]string(nil), e.Tools...)
	p.sandbox, p.detachable = e.Sandbox, e.Detachable
	if e.Transcript != "" {
		p.transcript = e.Transcript
	}
}

// when is an event's time, or the clock's when the event has none.
func (p *Pane) when(t time.Time) time.Time {
	if t.IsZero() {
		return p.now
	}
	return t
}

// usageOf takes the running totals of a usage report.
func usageOf(u event.Usage) usage {
	return usage{
		total: u.TotalTokens, prompt: u.PromptTokens, completion: u.CompletionTokens,
		cost: u.Cost, costKnown: u.CostKnown && (u.Requests > 0 || u.TotalTokens > 0),
	}
}

// finish folds the pane: the final state, its reason and the run's own
// stats, which are authoritative over what the events added up to.
func (p *Pane) finish(e event.AgentFinished) {
	p.state = stateOf(e.Status)
	p.reason = oneLine(e.Reason)
	if p.reason == "" && p.state == Failed {
		p.reason = p.failure
	}
	s := e.Stats
	if s.ToolCalls > 0 {
		p.tools = s.ToolCalls
	}
	if s.Steps > 0 {
		p.step = s.Steps
	}
	if s.Usage.Requests > 0 || s.Usage.TotalTokens > 0 {
		p.usage = usageOf(s.Usage)
	}
	if e.Transcript != "" {
		p.transcript = e.Transcript
	}
	p.change = e.Change
	p.ended = p.when(e.Time)
	p.duration = s.Duration
	// Without the run's own figure, time it from the events; not for an
	// interrupted child, whose end is only when baton noticed it.
	if p.duration <= 0 && p.state != Interrupted && !p.started.IsZero() && p.ended.After(p.started) {
		p.duration = p.ended.Sub(p.started)
	}
	p.convo.End("no result: " + p.state.String())
	p.convo.Append(convo.Entry{Kind: convo.Status, Title: p.state.String(), Summary: p.statsLine(),
		Body: p.reason, IsError: p.state == Failed || p.state == TimedOut})
}
