package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// compactPrompt asks for the summary that replaces the history.
const compactPrompt = `Summarize this conversation so that you can continue the work from the summary alone; the messages above will be replaced by it.
Keep: the person's goals and requests, decisions made and why, files read or changed (with paths), commands run and their outcome, errors met, and what remains to do.
Be specific and concise; write it as notes to yourself. Reply with the summary only.`

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
	case len(s.main.history) <= 1:
		return ErrNothingToCompact
	}
	// The job ends when the summary request does: answered, failed, or
	// cancelled with its context (Interrupt, Close).
	s.startBusy(func(ctx context.Context) {
		end := s.compact(ctx, focus, 0)
		// As a turn's end: no wake turn starts before end is sent.
		s.queueMu.Lock()
		s.mu.Lock()
		s.busy, s.turnCancel = false, nil
		s.mu.Unlock()
		// Sent once the session is idle, so a prompt sent on it is taken.
		s.send(end)
		s.queueMu.Unlock()
		s.wakeIfPending() // background results that came meanwhile
	})
	return nil
}

// autoCompact compacts before a turn when the last request filled more
// of the context window than configured. The turn goes on either way. It
// runs on the turn's goroutine, the only one touching the main agent.
func (s *Session) autoCompact(ctx context.Context) {
	used := s.main.contextUsed
	if s.cfg.AutoCompactAt <= 0 || used == 0 || len(s.main.history) <= 1 {
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
	a.emit(event.CompactionStarted{Meta: a.stamp(), Focus: focus, Auto: auto, Fill: fill})
	summary, usage, err := a.summarize(ctx, focus)
	s.mu.Lock()
	s.totals = s.totals.Add(usage)
	s.mu.Unlock()
	if err != nil {
		status, reason := classifyRunError(ctx, err)
		if status != event.StatusFailed {
			reason = string(status)
		}
		return s.recorded(event.Compacted{Meta: a.stamp(), Focus: focus, Auto: auto, Usage: usage, Error: reason})
	}
	done := s.recorded(event.Compacted{Meta: a.stamp(), Focus: focus, Auto: auto, Summary: summary, Replaced: len(a.history) - 1, Usage: usage})
	a.history = a.history[:1]
	a.addHistory(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: summaryIntro + summary})
	a.contextUsed = 0
	s.startHooks("compact", "")
	return done
}

// summarize asks the model, without tools, for a summary of the history.
// The request is the agent's own (retries, fallback, overflow handling)
// over a copy of the history; its text is not streamed as an answer.
func (a *Agent) summarize(ctx context.Context, focus string) (string, event.Usage, error) {
	saved, emit := a.history, a.emit
	defer func() { a.history, a.emit = saved, emit }()
	ask := compactPrompt
	if focus = strings.TrimSpace(focus); focus != "" {
		ask += "\nFocus above all on: " + focus
	}
	a.history = append(slices.Clip(saved), openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: ask})
	a.emit = func(ev event.Event) {
		switch ev.(type) {
		case event.TextDelta, event.ReasoningDelta, event.UsageReported:
			return // the summary is shown whole by Compacted
		}
		emit(ev)
	}
	resp, err := a.requestWithRetry(ctx, false)
	if err != nil && contextOverflow(err) && a.compact() {
		resp, err = a.requestWithRetry(ctx, false)
	}
	var usage event.Usage
	if resp.HasUsage {
		usage = a.catalog.Cost(a.model(), resp.Usage)
	}
	if err != nil {
		return "", usage, fmt.Errorf("summarize the conversation: %w", err)
	}
	summary := strings.TrimSpace(resp.Content)
	if summary == "" {
		return "", usage, errors.New("summarize the conversation: the model returned an empty summary")
	}
	return summary, usage, nil
}

// recorded writes ev to the transcript, saying so if that fails, and
// returns it to be sent.
func (s *Session) recorded(ev event.Compacted) event.Compacted {
	if err := s.rec.event(ev); err != nil {
		s.send(event.Notice{Meta: ev.Meta, Text: err.Error()})
	}
	return ev
}
