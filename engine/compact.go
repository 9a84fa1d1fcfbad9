package engine

import (
	"context"
	"errors"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// summaryIntro opens the message that carries the summary in the new
// history.
const summaryIntro = "The conversation so far was compacted. Summary of it:\n\n"

// ErrNothingToCompact is returned by Compact when the conversation holds
// no message yet.
var ErrNothingToCompact = errors.New("nothing to compact yet")

// Compact replaces the main agent's history with a model-written summary,
// in the background like a turn: CompactionStarted, then Compacted. focus
// says what the summary should keep above all. It fails while a turn
// runs.
func (s *Session) Compact(focus string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing:
		return ErrClosed
	case s.busy:
		return ErrBusy
	case s.main.Empty():
		return ErrNothingToCompact
	}
	// The job ends when the summary request does: answered, failed, or
	// cancelled with its context (Interrupt, Close).
	s.startBusy(func(ctx context.Context) {
		end := s.compact(ctx, focus, 0)
		// As a turn's end: no wake turn starts before end is sent.
		s.children.InOrder(func() {
			s.mu.Lock()
			s.busy, s.turnCancel = false, nil
			s.mu.Unlock()
			// Sent once the session is idle, so a prompt sent on it is taken.
			s.send(end)
		})
		s.wakeIfPending() // background results that came meanwhile
	})
	return nil
}

// autoCompact compacts before a turn when the last request filled more
// of the context window than configured. The turn goes on either way. It
// runs on the turn's goroutine, the only one touching the main agent.
func (s *Session) autoCompact(ctx context.Context) {
	used := s.main.ContextUsed()
	if s.cfg.AutoCompactAt <= 0 || used == 0 || s.main.Empty() {
		return
	}
	info, ok := s.cfg.Catalog.Lookup(s.Model())
	if !ok || info.ContextWindow <= 0 {
		return
	}
	if fill := float64(used) / float64(info.ContextWindow); fill >= s.cfg.AutoCompactAt {
		s.send(s.compact(ctx, "", fill))
	}
}

// compact runs one compaction of the main agent (fill > 0: automatic)
// and returns the Compacted event, recorded, for the caller to send. The
// record comes before the summary message's, so a resume forgets the old
// history and then reads the summary.
func (s *Session) compact(ctx context.Context, focus string, fill float64) event.Compacted {
	a := s.main
	auto := fill > 0
	s.preCompact(ctx, auto, focus)
	a.Emit(event.CompactionStarted{Meta: a.Stamp(), Focus: focus, Auto: auto, Fill: fill})
	summary, usage, err := a.Summarize(ctx, focus)
	s.mu.Lock()
	s.totals = s.totals.Add(usage)
	s.mu.Unlock()
	if err != nil {
		status, reason := agent.Classify(ctx, err)
		if status != event.StatusFailed {
			reason = string(status)
		}
		return s.recorded(event.Compacted{Meta: a.Stamp(), Focus: focus, Auto: auto, Usage: usage, Error: reason})
	}
	done := s.recorded(event.Compacted{Meta: a.Stamp(), Focus: focus, Auto: auto, Summary: summary, Replaced: len(a.History()) - 1, Usage: usage})
	a.Restart(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: summaryIntro + summary})
	s.startHooks("compact", "")
	return done
}

// recorded writes ev to the transcript, saying so if that fails, and
// returns it to be sent.
func (s *Session) recorded(ev event.Compacted) event.Compacted {
	if err := s.rec.event(ev); err != nil {
		s.send(event.Notice{Meta: ev.Meta, Text: err.Error()})
	}
	return ev
}
