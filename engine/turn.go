package engine

import (
	"context"

	"github.com/seed-e4e525a6/baton/engine/agent"
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
		s.wakes = 0
		s.children.NewPrompt()
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
		growStack(0)
		job(ctx)
	}()
}

// runTurn runs one turn and reports it. A wake turn has no prompt: the
// results waiting are its first message.
func (s *Session) runTurn(ctx context.Context, prompt, wake string) {
	a := s.main
	started := event.TurnStarted{Meta: a.Stamp(), Prompt: prompt}
	if wake != "" {
		started.Prompt, started.Wake = wake, true
	}
	a.Emit(started)
	var (
		res agent.Result
		x   = expansion{text: prompt}
		err error
	)
	s.tellMCPNotes(a.Emit)
	if wake == "" {
		x, err = s.expandPrompt(ctx, a, prompt)
		if err != nil {
			res.Status, res.Reason = event.StatusFailed, err.Error()
			a.Emit(event.ErrorOccurred{Meta: a.Stamp(), Message: err.Error()})
		}
	}
	if wake == "" && res.Status == "" {
		typed := prompt
		var blocked bool
		if prompt, blocked, res.Reason = s.beforePrompt(ctx, x.text); blocked {
			res.Status = event.StatusDenied
		} else {
			s.attachFiles(ctx, a, typed, &x)
		}
	}
	if res.Status == "" {
		s.autoCompact(ctx)
		res = a.RunMessage(ctx, x.message(s.withModeNote(prompt), a.TakesImages()))
	}
	a.EndTurn()
	if res.Status == event.StatusCancelled {
		res.Status = event.StatusInterrupted
	}
	var children []event.AgentID
	// In order: a result that ends now wakes the next turn only after
	// this one's TurnEnded is on the channel.
	s.children.InOrder(func() {
		s.mu.Lock()
		s.busy = false
		s.turnCancel = nil
		// task_wait may have taken a result after the turn's last request.
		res.Stats.Usage = res.Stats.Usage.Add(s.children.TakeOwed())
		s.totals = s.totals.Add(res.Stats.Usage)
		children = s.turnChildren
		s.turnChildren = nil
		s.mu.Unlock()
		a.Emit(event.TurnEnded{Meta: a.Stamp(), Status: res.Status, Text: res.Text, Usage: res.Stats.Usage})
	})
	s.trashTranscripts(s.children.Foreground(children))
	s.wakeIfPending()
}
