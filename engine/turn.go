package engine

import (
	"context"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// Submit starts a turn of the main agent in the background. Its events,
// ending with TurnEnded, arrive on Events.
func (s *Session) Submit(prompt string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing:
		return ErrClosed
	case s.busy:
		return ErrBusy
	}
	s.startTurn(prompt, "")
	return nil
}

// startTurn starts a turn for prompt, or with wake set, a turn of its own
// for the background results waiting; s.mu is held. A prompt of the
// person renews what results may start after it; a wake turn spends it.
func (s *Session) startTurn(prompt, wake string) {
	if wake == "" {
		s.wakes, s.sentToBackground = 0, 0
	} else {
		s.wakes++
	}
	// The turn ends when the main agent's Run returns: the model
	// answered, a limit was hit, or ctx was cancelled.
	s.startBusy(func(ctx context.Context) { s.runTurn(ctx, prompt, wake) })
}

// startBusy runs job, a turn or a compaction, on a goroutine of its own
// as the session's one busy job: Interrupt cancels its context, and the
// event channel closes only after it. The goroutine ends when job
// returns; s.mu is held.
func (s *Session) startBusy(job func(ctx context.Context)) {
	s.busy = true
	ctx, cancel := context.WithCancel(s.ctx)
	s.turnCancel = cancel
	s.turns.Add(1)
	go func() {
		defer s.turns.Done()
		defer cancel()
		job(ctx)
	}()
}

// runTurn runs one turn and reports it. A wake turn has no prompt: the
// results waiting are its first message.
func (s *Session) runTurn(ctx context.Context, prompt, wake string) {
	a := s.main
	started := event.TurnStarted{Meta: a.stamp(), Prompt: prompt}
	if wake != "" {
		started.Prompt, started.Wake = wake, true
	}
	a.emit(started)
	var (
		res Result
		x   = expansion{text: prompt}
		err error
	)
	s.tellMCPNotes(a.emit)
	if wake == "" {
		x, err = s.expandPrompt(ctx, a, prompt)
		if err != nil {
			res.Status, res.Reason = event.StatusFailed, err.Error()
			a.emit(event.ErrorOccurred{Meta: a.stamp(), Message: err.Error()})
		}
	}
	if wake == "" && res.Status == "" {
		var blocked bool
		if prompt, blocked, res.Reason = s.beforePrompt(ctx, x.text); blocked {
			res.Status = event.StatusDenied
		}
	}
	if res.Status == "" {
		s.autoCompact(ctx)
		res = a.RunMessage(ctx, x.message(prompt, a.takesImages()))
	}
	a.skills.endTurn()
	if res.Status == event.StatusCancelled {
		res.Status = event.StatusInterrupted
	}
	// queueMu keeps a result that ends now from waking the next turn
	// before this one's TurnEnded is on the channel.
	s.queueMu.Lock()
	s.mu.Lock()
	s.busy = false
	s.turnCancel = nil
	// task_wait may have taken a result after the turn's last request.
	res.Stats.Usage = res.Stats.Usage.Add(s.owed)
	s.owed = event.Usage{}
	s.totals = s.totals.Add(res.Stats.Usage)
	children := s.turnChildren
	s.turnChildren = nil
	s.mu.Unlock()
	a.emit(event.TurnEnded{Meta: a.stamp(), Status: res.Status, Text: res.Text, Usage: res.Stats.Usage})
	s.queueMu.Unlock()
	s.trashTranscripts(s.deleg.foreground(children))
	s.wakeIfPending()
}

// trashTranscripts moves the children's transcripts to the trash when the
// configuration asks for it.
func (s *Session) trashTranscripts(children []event.AgentID) {
	if s.rec == nil || !s.cfg.TrashChildTranscripts {
		return
	}
	for _, id := range children {
		if err := s.cfg.Transcript.Trash(string(id), time.Now()); err != nil {
			s.send(event.Notice{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Text: "transcript cleanup: " + err.Error()})
		}
	}
}

// childStarted notes a child of the running turn.
func (s *Session) childStarted(id event.AgentID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turnChildren = append(s.turnChildren, id)
}
