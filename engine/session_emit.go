package engine

import (
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// emit records ev in the transcript, then sends it: nothing reaches the
// person before it is written down.
func (s *Session) emit(ev event.Event) {
	if err := s.rec.event(ev); err != nil {
		s.send(event.Notice{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Text: err.Error()})
	}
	s.send(ev)
}

// recordMessages returns the hook that keeps agent's history messages in
// its transcript.
func (s *Session) recordMessages(agent event.AgentID) func(openai.ChatCompletionMessage) {
	return func(m openai.ChatCompletionMessage) {
		if err := s.rec.message(agent, m); err != nil {
			s.send(event.Notice{Meta: event.Meta{Agent: event.MainAgent, Time: time.Now()}, Text: err.Error()})
		}
	}
}

// send puts ev on the event channel, waiting for room; it gives up only
// when the session itself has ended.
func (s *Session) send(ev event.Event) {
	select {
	case s.events <- ev:
	case <-s.ctx.Done():
	}
}
