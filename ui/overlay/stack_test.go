package overlay

import (
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// layer is a layer that counts the messages it was given.
type layer struct{ seen int }

func (l *layer) Update(tea.Msg) tea.Cmd   { l.seen++; return nil }
func (l *layer) View() string             { return "" }
func (l *layer) SetSize(int, int)         {}
func (l *layer) Place() Place             { return Body }
func (l *layer) Route(tea.KeyMsg) Route   { return Take }
func (l *layer) ShortHelp() []key.Binding { return nil }
func (l *layer) FullHelp() []KeyGroup     { return nil }

// The stack is what is open, the top last: a layer pushed again comes
// to the top, one taken off leaves what was under it with the keys, and
// every open layer sees a message that is not a key.
func TestStack(t *testing.T) {
	var s Stack
	if s.Top() != nil || s.Len() != 0 {
		t.Fatal("an empty stack has a top")
	}
	transcript, cards := &layer{}, &layer{}
	s.Push(transcript)
	s.Push(cards)
	if s.Top() != Layer(cards) || s.Len() != 2 {
		t.Fatalf("the cards pushed over the transcript are not on top")
	}
	s.Push(transcript)
	if s.Top() != Layer(transcript) || s.Len() != 2 {
		t.Fatalf("a layer pushed again did not come to the top: %d open", s.Len())
	}
	s.Update(struct{}{})
	if transcript.seen != 1 || cards.seen != 1 {
		t.Errorf("a message reached the layers %d and %d times, want once each", transcript.seen, cards.seen)
	}
	if !s.Remove(transcript) || s.Remove(transcript) || s.Top() != Layer(cards) || s.Has(transcript) || len(s.All()) != 1 {
		t.Error("taking the top off did not leave the one under it on top")
	}
	if msg, ok := Hide(cards)().(Close); !ok || msg.Layer != Layer(cards) {
		t.Error("Hide does not name its layer")
	}
	if msg, ok := Show(cards)().(Open); !ok || msg.Layer != Layer(cards) {
		t.Error("Show does not name its layer")
	}
}
