package agent

import (
	"errors"
	"sync"
)

// inbox holds messages the person sends into a running agent; they are
// delivered before the agent's next model request.
type inbox struct {
	mu      sync.Mutex
	pending []string
	closed  bool
}

// errInboxClosed says a message came after the agent's last request.
var errInboxClosed = errors.New("it has finished; the message was not delivered")

// push queues a message, or refuses it once the agent has finished.
func (b *inbox) push(text string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return errInboxClosed
	}
	b.pending = append(b.pending, text)
	return nil
}

// close refuses later messages and returns those never delivered.
func (b *inbox) close() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	left := b.pending
	b.pending = nil
	return left
}

// take returns and clears the queued messages.
func (b *inbox) take() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.pending
	b.pending = nil
	return out
}

// noteBox holds what an agent must be told before its next model
// request. Unlike the inbox it never closes, since a review may end after
// the agent's turn.
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
