package trustcard

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// A card answered from the keyboard returns that answer, drawn in the
// default theme when the one named is unknown (q quits at once, before
// the typing guard arms the other answers); once answered the card draws
// nothing, so the screen it leaves is clean.
func TestAskReturnsTheAnswerTyped(t *testing.T) {
	out := &syncBuffer{drawn: make(chan struct{})}
	choice, err := Ask(context.Background(), request(), "no-such-theme", tea.WithInput(strings.NewReader("q")), tea.WithOutput(out))
	if err != nil || choice != Quit {
		t.Fatalf("choice %v, err %v; want Quit", choice, err)
	}
	m, _ := press(arm(newCard(request(), 80, 24)), "t")
	if m.Choice() != Trust || m.View() != "" {
		t.Fatalf("after t: choice %v, view %q", m.Choice(), m.View())
	}
}

// brokenInput is a terminal whose reads fail.
type brokenInput struct{}

func (brokenInput) Read([]byte) (int, error) {
	return 0, errors.New("read /dev/tty: input/output error")
}

// A terminal that cannot be read ends the card with an error that names
// it, and the answer is Quit: nothing is trusted by default.
func TestAskOnABrokenTerminalIsQuit(t *testing.T) {
	choice, err := Ask(context.Background(), request(), "dark", tea.WithInput(brokenInput{}), tea.WithOutput(&syncBuffer{drawn: make(chan struct{})}))
	if choice != Quit || err == nil || !strings.Contains(err.Error(), "trust card: ") {
		t.Fatalf("choice %v, err %v; want Quit and the card's error", choice, err)
	}
}

// ↑ scrolls back what ↓ scrolled past, and stops at the top.
func TestCardScrollsBackUp(t *testing.T) {
	req := request()
	for i := range 40 {
		req.Sections[2].Lines = append(req.Sections[2].Lines, fmt.Sprintf("limit_%d = 99", i))
	}
	top := screen(newCard(req, 80, 16))
	m, _ := press(newCard(req, 80, 16), "down", "down", "down")
	if screen(m) == top {
		t.Fatal("↓ did not scroll the card")
	}
	m, _ = press(m, "up", "up", "up", "up", "up")
	if got := screen(m); got != top {
		t.Fatalf("scrolled back up, the card shows:\n%s\nwant:\n%s", got, top)
	}
}
