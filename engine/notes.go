package engine

import (
	"fmt"
	"sync"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// noteBox holds what an agent must be told before its next model
// request: the person's decisions on its children's changes. Unlike the
// inbox it never closes, since a review may end after the agent's turn.
type noteBox struct {
	mu    sync.Mutex
	notes []string
}

// push queues a note.
func (b *noteBox) push(text string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.notes = append(b.notes, text)
}

// take returns and clears the queued notes.
func (b *noteBox) take() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.notes
	b.notes = nil
	return out
}

// discardedSummary is the review's summary when nothing was applied.
const discardedSummary = "discarded it; nothing was applied"

// reviewNote is what the parent model is told about a finished review;
// only a review that applied something points it at the working tree.
func reviewNote(agent event.AgentID, description, summary string) string {
	note := fmt.Sprintf("The person reviewed the change of sub-agent %s (%s): %s.", agent, description, summary)
	if summary != discardedSummary {
		note += " What was applied is in the working tree now."
	}
	return note
}

// deliverReviewNotes moves the queued review notes into the history.
func (a *Agent) deliverReviewNotes() {
	if a.reviewNotes == nil {
		return
	}
	for _, text := range a.reviewNotes.take() {
		a.addHistory(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: "[baton] " + text})
	}
}

// startWorktrees readies worktree keeping and, in the background, forgets
// git's records of this repository's worktrees that vanished.
func (s *Session) startWorktrees() {
	s.wt = newWorktrees(s)
	s.background.Add(1)
	// Ends when the few git commands of the prune return (each bounded).
	go func() {
		defer s.background.Done()
		s.wt.prune(s.ctx)
	}()
}
