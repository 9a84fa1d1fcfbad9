package ui

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// panicEvent makes Update panic when it is routed.
type panicEvent struct{}

func (panicEvent) EventMeta() event.Meta { panic("boom") }
func (panicEvent) Kind() string          { return "panic" }

func TestRunRestoresTerminalAfterPanic(t *testing.T) {
	s := newFakeSession()
	s.events <- panicEvent{}
	var out bytes.Buffer
	err := run(context.Background(), s, Options{Theme: "dark"}, strings.NewReader(""), &out)
	if !errors.Is(err, tea.ErrProgramPanic) {
		t.Fatalf("run returned %v, want a panic error", err)
	}
	if !strings.HasPrefix(err.Error(), "run ui:") {
		t.Errorf("error %q does not say which operation failed", err)
	}
	if !strings.Contains(out.String(), "\x1b[?1049l") {
		t.Error("the alternate screen was not left after the panic")
	}
}

func TestRunEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := run(ctx, newFakeSession(), Options{Theme: "dark"}, strings.NewReader(""), &bytes.Buffer{})
	if err != nil {
		t.Errorf("run after the context ended returned %v, want nil", err)
	}
}

func TestRunRejectsUnknownTheme(t *testing.T) {
	err := Run(context.Background(), newFakeSession(), Options{Theme: "neon"})
	if err == nil || !strings.Contains(err.Error(), `unknown theme "neon"`) {
		t.Errorf("Run with an unknown theme returned %v", err)
	}
}

// mouse = false leaves the mouse to the terminal: no mouse reports are
// switched on, so text is selected as in any program.
func TestNoMouseLeavesTheMouseAlone(t *testing.T) {
	for _, noMouse := range []bool{false, true} {
		s := newFakeSession()
		s.events <- panicEvent{} // ends the program after its first frame
		var out bytes.Buffer
		opts := Options{Theme: "dark", NoMouse: noMouse}
		_ = run(context.Background(), s, opts, strings.NewReader(""), &out)
		if got := strings.Contains(out.String(), "\x1b[?1002h"); got == noMouse {
			t.Errorf("NoMouse %v: mouse reports switched on: %v", noMouse, got)
		}
	}
}

// TestTheBellGoesTheFramesWay: a bell for the terminal the frames go to
// is written through the frames' writer, which a frame being written
// holds, so it cannot land inside the frame; any other bell is left
// alone.
func TestTheBellGoesTheFramesWay(t *testing.T) {
	out, frames, other := &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	if got := sameWay(out, out, frames); got != frames {
		t.Errorf("the terminal's bell goes to %v, not the frames' writer", got)
	}
	if got := sameWay(other, out, frames); got != other {
		t.Errorf("another writer's bell was moved to %v", got)
	}
	if got := sameWay(nil, out, frames); got != nil {
		t.Errorf("no bell became %v", got)
	}
}
