package engine

import (
	"fmt"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// restoreChildren rebuilds, from a resumed conversation's events, every
// child of the session (for task_status and follow-ups) and queues the
// results of background children that ended but never reached the main
// agent, so the next turn receives them before anything else.
func (s *Session) restoreChildren() {
	started := map[event.AgentID]event.AgentStarted{}
	background := map[event.AgentID]bool{}
	var finished []event.AgentFinished
	for _, ev := range s.history {
		switch e := ev.(type) {
		case event.AgentStarted:
			started[e.Agent] = e
		case event.AgentBackgrounded:
			background[e.Agent] = true
		case event.AgentFinished:
			finished = append(finished, e)
		case event.ResultDelivered:
			s.delivered[e.Child] = true
		}
	}
	for _, fin := range finished {
		n := int64(fin.Number)
		if n == 0 { // a transcript from before children had numbers
			n, _ = ordinal(string(fin.Agent), "-")
		}
		run := newChildRun(fin.Agent, int(n), fin.Meta)
		run.started, run.begin = started[fin.Agent], started[fin.Agent].Time
		run.approved, run.background = true, background[fin.Agent]
		res := Result{Text: fin.Text, Status: fin.Status, Reason: fin.Reason, Stats: fin.Stats}
		result := fin.Result
		if result == "" {
			result = formatChildResult(res, s.deleg.limits.ResultChars)
		}
		run.settle(res, result)
		s.deleg.restore(run)
		if run.background && !s.delivered[fin.Agent] {
			s.queued = append(s.queued, delivery{meta: fin.Meta, number: run.number, status: fin.Status, result: result, usage: fin.Stats.Usage})
		}
	}
	if n := len(s.queued); n > 0 {
		note := fmt.Sprintf("%s of background sub-agents from before the quit will be delivered to the main agent before your next prompt", countNoun(n, "result", "results"))
		s.resumeNotes = append(s.resumeNotes, note)
		s.history = append(s.history, event.Notice{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Text: note})
	}
}

// restore records a child read back from a transcript; a later run of
// the same id (never made: ids move past resumed ones) would replace it.
func (d *delegator) restore(run *childRun) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.runs[run.id]; !ok {
		d.order = append(d.order, run)
	}
	d.runs[run.id] = run
}
