package ui

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// wholeProgram runs the real engine against a scripted server inside a
// Bubble Tea program.
func wholeProgram(t *testing.T, respond llmtest.Responder, rules []event.PermissionRule) (*teatest.TestModel, *llmtest.Server, string) {
	t.Helper()
	return wholeProgramWith(t, respond, rules, nil)
}

// wholeProgramWith is wholeProgram with options changed by mutate.
func wholeProgramWith(t *testing.T, respond llmtest.Responder, rules []event.PermissionRule, mutate func(*Options)) (*teatest.TestModel, *llmtest.Server, string) {
	t.Helper()
	dir := t.TempDir()
	srv := llmtest.NewServer(t, respond)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	s, err := engine.NewSession(ctx, engine.Config{Client: srv.Client(), Model: "gpt-4.1", Workspace: dir, Mode: permission.Ask, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	opts := Options{Workspace: dir, Theme: "dark", Mode: "ask"}
	if mutate != nil {
		mutate(&opts)
	}
	tm := teatest.NewTestModel(t, New(s, opts), teatest.WithInitialTermSize(110, 34))
	return tm, srv, dir
}

// quitProgram ends the program the way the person would.
func quitProgram(t *testing.T, tm *teatest.TestModel) {
	t.Helper()
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(waitLimit))
}

// submit types a prompt and sends it.
func submit(tm *teatest.TestModel, prompt string) {
	tm.Type(prompt)
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
}

// denyWithReason answers the armed card with n, a reason and enter.
func denyWithReason(t *testing.T, tm *teatest.TestModel, reason string) {
	t.Helper()
	waitFor(t, tm, "y allow once ·")
	tm.Type("n")
	waitFor(t, tm, "deny, telling the model why")
	tm.Type(reason)
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
}

// TestTypingAheadNeverAnswersACard types a sentence while a write_file
// card appears, the "y" of "you" among the keys that come after it: every
// key lands in the input, the file is not written, and the card answers
// only the y given after typing paused. When typing pauses is the test's
// to say (a held guard clock), not how promptly a loaded machine runs the
// typist: a stall of the test's goroutine is a pause to the card.
func TestTypingAheadNeverAnswersACard(t *testing.T) {
	paused := make(chan struct{})
	var once sync.Once
	pause := func() { once.Do(func() { close(paused) }) }
	t.Cleanup(pause)
	held := func(_ time.Duration, msg tea.Msg) tea.Cmd {
		return func() tea.Msg {
			<-paused
			return msg
		}
	}
	tm, _, dir := wholeProgramWith(t, func(req *llmtest.Request, w *llmtest.Writer) {
		if req.Index > 0 {
			w.Text("hello.txt is written.")
			return
		}
		w.ToolCalls(llmtest.Call{ID: "w1", Name: "write_file", Args: `{"path":"hello.txt","content":"hi\n"}`})
	}, nil, func(o *Options) { o.cardClock = held })
	submit(tm, "write a file")
	const before, after = "okay thanks ", "you are fast"
	tm.Type(before)
	waitFor(t, tm, "Allow write_file?") // the card came while the person types
	tm.Type(after)
	waitFor(t, tm, "> "+before+after)
	if _, err := os.Stat(filepath.Join(dir, "hello.txt")); err == nil {
		t.Fatal("typing answered the card: hello.txt was written")
	}
	pause()
	waitFor(t, tm, "y allow once ·") // armed once typing paused
	tm.Type("y")
	waitFor(t, tm, "hello.txt is written.")
	if _, err := os.Stat(filepath.Join(dir, "hello.txt")); err != nil {
		t.Fatalf("the deliberate y did not allow the write: %v", err)
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC}) // the typed sentence is still in the box
	quitProgram(t, tm)
}

// TestToolCardDeniedWithAReason: n, a reason and enter deny the command
// and the model receives the reason.
func TestToolCardDeniedWithAReason(t *testing.T) {
	tm, _, _ := wholeProgram(t, func(req *llmtest.Request, w *llmtest.Writer) {
		switch {
		case req.HasToolResult("use make test instead"):
			w.Text("Understood: I will run make test.")
		case req.Index == 0:
			w.ToolCalls(llmtest.Call{ID: "r1", Name: "run_command", Args: `{"command":"go test ./..."}`})
		default:
			w.Text("the reason never arrived")
		}
	}, nil)
	submit(tm, "run the tests")
	waitFor(t, tm, "Allow run_command?")
	denyWithReason(t, tm, "use make test instead")
	waitFor(t, tm, "Understood: I will run make test.")
	quitProgram(t, tm)
}

// TestEscOnAToolCardStopsTheTurn: esc denies the command and interrupts;
// the model is not asked again.
func TestEscOnAToolCardStopsTheTurn(t *testing.T) {
	tm, srv, dir := wholeProgram(t, func(req *llmtest.Request, w *llmtest.Writer) {
		if req.Index == 0 {
			w.ToolCalls(llmtest.Call{ID: "r1", Name: "run_command", Args: `{"command":"touch made"}`})
			return
		}
		w.Text("carried on after esc")
	}, nil)
	submit(tm, "make a file")
	waitFor(t, tm, "Allow run_command?")
	waitFor(t, tm, "y allow once ·")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitFor(t, tm, "interrupted")
	quitProgram(t, tm)
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("the model was asked %d times; esc must stop the turn after the first", n)
	}
	if _, err := os.Stat(filepath.Join(dir, "made")); err == nil {
		t.Error("the command ran after esc")
	}
}
