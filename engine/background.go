package engine

import (
	"fmt"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// delivery is a background child's result waiting for the main agent.
type delivery struct {
	meta   event.Meta
	number int
	status event.Status
	result string
	usage  event.Usage
	// waits says the person was told it waits for their next prompt.
	waits bool
}

// goChild runs fn, a child's whole run, in a goroutine the session waits
// for before it closes its events. It fails once the session is closing.
func (s *Session) goChild(fn func()) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return ErrClosed
	}
	s.turns.Add(1)
	// This goroutine ends when the child's run does: the run is bounded
	// by the child's timeout and cancelled with the session's context.
	go func() {
		defer s.turns.Done()
		fn()
	}()
	return nil
}

// Background sends a running child of the main agent to the background:
// the task call waiting for it returns at once with its id, and its result
// is delivered when it ends. It is the b key on a pane.
func (s *Session) Background(id event.AgentID) error {
	run, ok := s.deleg.run(id)
	if !ok {
		return fmt.Errorf("no sub-agent %q", id)
	}
	if run.meta.Parent != event.MainAgent {
		return fmt.Errorf("send %s to the background: only the main agent's sub-agents can run in the background", id)
	}
	return s.detach(run, "person")
}

// claimBackground counts a task call that asks for the background, or
// refuses it once the calls since the person's last prompt reached the
// bound: results that start tasks whose results start tasks end there.
func (s *Session) claimBackground() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if limit := s.cfg.Limits.BackgroundPerPrompt; s.sentToBackground >= limit {
		return fmt.Errorf("background: %d sub-agents were sent to the background since the person's last prompt, "+
			"the most allowed ([limits] background_per_prompt); use %s for the ones running, run this task without background, "+
			"or leave it to the person", limit, TaskWaitToolName)
	}
	s.sentToBackground++
	return nil
}

// detach lets go of a child: its parent's call returns, it runs on, and
// the session delivers its result later.
func (s *Session) detach(run *childRun, by string) error {
	s.mu.Lock()
	err := run.markBackground()
	if err == nil {
		s.bgLive[run.id] = run
	}
	s.mu.Unlock()
	if err != nil {
		return fmt.Errorf("send %s to the background: %w", run.id, err)
	}
	s.emit(event.AgentBackgrounded{Meta: stampOf(run.meta), By: by})
	return nil
}

// settleRun records a child's outcome and, for a background child, queues
// its result and says so: a running turn takes it before its next
// request; otherwise it starts a turn of its own unless waking is off, or
// spent for this prompt (then wakeIfPending says it is held). queueMu
// puts ResultQueued on the channel before anyone can deliver it.
func (s *Session) settleRun(run *childRun, res Result, result string) {
	s.queueMu.Lock()
	s.mu.Lock()
	background := run.settle(res, result)
	waits := s.cfg.NoWakeOnResult && !s.busy
	if background {
		delete(s.bgLive, run.id)
		s.queued = append(s.queued, delivery{meta: run.meta, number: run.number, status: res.Status, result: result, usage: res.Stats.Usage, waits: waits})
	}
	s.mu.Unlock()
	if background {
		s.send(event.ResultQueued{Meta: stampOf(run.meta), Status: res.Status, Waits: waits})
	}
	s.queueMu.Unlock()
	if background {
		s.wakeIfPending()
	}
}

// mayWake says a result may start a turn of its own: waking is on and the
// turns results started since the person's prompt are below the bound.
// s.mu is held.
func (s *Session) mayWake() bool {
	return !s.cfg.NoWakeOnResult && s.wakes < s.cfg.Limits.WakeTurns
}

// split parts the queue into what take wants and the rest.
func split(ds []delivery, take func(delivery) bool) (taken, kept []delivery) {
	for _, d := range ds {
		if take(d) {
			taken = append(taken, d)
		} else {
			kept = append(kept, d)
		}
	}
	return taken, kept
}

// wakeIfPending starts a wake turn for results that arrived after the
// last request of the turn that just ended. Once the wake turns of this
// prompt are spent the results wait for the person, who is told which
// (ResultsHeld) unless they already were.
func (s *Session) wakeIfPending() {
	s.queueMu.Lock()
	defer s.queueMu.Unlock()
	s.mu.Lock()
	if s.busy || s.closing || len(s.queued) == 0 || s.cfg.NoWakeOnResult {
		s.mu.Unlock()
		return
	}
	if s.mayWake() {
		s.startTurn("", wakeLabel(s.queued))
		s.mu.Unlock()
		return
	}
	var held []event.AgentID
	for i := range s.queued {
		if !s.queued[i].waits {
			s.queued[i].waits = true
			held = append(held, s.queued[i].meta.Agent)
		}
	}
	s.mu.Unlock()
	if len(held) > 0 {
		s.send(event.ResultsHeld{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Children: held, WakeTurns: s.cfg.Limits.WakeTurns})
	}
}

// deliverQueued moves the queued results into the main agent's history
// as one message, before its next request, and counts the children's
// usage in the turn: a foreground child's is counted by its task call.
func (s *Session) deliverQueued(a *Agent, run *runState) {
	s.queueMu.Lock()
	defer s.queueMu.Unlock()
	s.mu.Lock()
	ds, kept := split(s.queued, func(delivery) bool { return true })
	owed := s.owed
	s.queued, s.owed = kept, event.Usage{}
	for _, d := range ds {
		s.delivered[d.meta.Agent] = true
	}
	s.mu.Unlock()
	if len(ds) > 0 {
		a.addHistory(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: deliveryText(ds)})
	}
	usage := owed
	for _, d := range ds {
		a.emit(event.ResultDelivered{Meta: a.stamp(), Child: d.meta.Agent, Number: d.number, Status: d.status, Via: "turn"})
		usage = usage.Add(d.usage)
	}
	if usage.Requests > 0 || usage.TotalTokens > 0 {
		run.stats.Usage = run.stats.Usage.Add(usage)
		a.emit(event.UsageReported{Meta: a.stamp(), Request: usage, Total: run.stats.Usage})
	}
}

// takeDelivered hands task_wait the queued results of ids, marking them
// delivered; their usage is counted with the main agent's next request.
func (s *Session) takeDelivered(ids map[event.AgentID]bool) []delivery {
	s.queueMu.Lock()
	defer s.queueMu.Unlock()
	s.mu.Lock()
	taken, kept := split(s.queued, func(d delivery) bool { return ids[d.meta.Agent] })
	for _, d := range taken {
		s.delivered[d.meta.Agent] = true
		s.owed = s.owed.Add(d.usage)
	}
	s.queued = kept
	s.mu.Unlock()
	for _, d := range taken {
		s.emit(event.ResultDelivered{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Child: d.meta.Agent, Number: d.number, Status: d.status, Via: "task_wait"})
	}
	return taken
}

// heading is "[#3 done] explore-3 (find auth code)".
func (d delivery) heading() string {
	return fmt.Sprintf("[#%d %s] %s (%s)", d.number, d.status.Word(), d.meta.Agent, d.meta.Description)
}

// deliveryText is the message that hands the main agent its results.
func deliveryText(ds []delivery) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.heading() + " ended in the background. Its result:\n\n" + d.result
	}
	return strings.Join(parts, "\n\n---\n\n")
}

// wakeLabel is how a wake turn opens: "[#3 done] explore-3 (…)", and how
// many more results came with it.
func wakeLabel(ds []delivery) string {
	label := ds[0].heading()
	if len(ds) > 1 {
		label += fmt.Sprintf(" and %d more", len(ds)-1)
	}
	return label
}
