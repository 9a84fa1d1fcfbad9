package overlay

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/themes"
)

// quitAnswer is what a question's quit function was called with.
type quitAnswer struct{ detach bool }

// messages runs cmd and the batches it returns, gathering their messages.
func messages(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range batch {
			out = append(out, messages(c)...)
		}
		return out
	}
	if msg == nil {
		return nil
	}
	return []tea.Msg{msg}
}

// ask opens the question about running children, detachable of which
// can outlive baton, at width.
func ask(running, detachable, width int) *QuitAsk {
	styles := themes.New(themes.Dark())
	q := NewQuitAsk(running, detachable, &styles, func(detach bool) tea.Cmd {
		return func() tea.Msg { return quitAnswer{detach} }
	})
	q.SetSize(width, 4)
	return q
}

// The question names how many children run and offers what baton can do
// with them: the detach choice only when some can outlive baton, worded
// for all of them or for the part that can.
func TestQuitAskSaysWhatQuittingDoes(t *testing.T) {
	for _, tc := range []struct {
		running, detachable int
		want                string
		helps               []string
	}{
		{1, 0, "1 sub-agent still running — q quit and stop it, esc stay", []string{"q quit and stop it", "esc stay"}},
		{3, 0, "3 sub-agents still running — q quit and stop them, esc stay", []string{"q quit and stop them", "esc stay"}},
		{2, 2, "2 sub-agents still running — q quit and stop them, d detach them, esc stay", []string{"q quit and stop them", "d detach them", "esc stay"}},
		{3, 1, "3 sub-agents still running — q quit and stop them, d detach the 1 that can outlive baton, esc stay", []string{"q quit and stop them", "d detach it", "esc stay"}},
	} {
		q := ask(tc.running, tc.detachable, 200)
		if got := ansi.Strip(q.View()); got != tc.want {
			t.Errorf("%d running, %d detachable: the question reads %q, want %q", tc.running, tc.detachable, got, tc.want)
		}
		var helps []string
		for _, b := range q.ShortHelp() {
			helps = append(helps, b.Help().Key+" "+b.Help().Desc)
		}
		if strings.Join(helps, ", ") != strings.Join(tc.helps, ", ") {
			t.Errorf("%d running, %d detachable: the footer offers %q, want %q", tc.running, tc.detachable, helps, tc.helps)
		}
		if q.FullHelp() != nil || q.Place() != Body || q.Route(press("x")) != Take {
			t.Error("the question is not a card taking every key")
		}
	}
}

// q (or ctrl+c again) quits and stops the children, d leaves the ones
// that can outlive baton running, esc closes the question and quits
// nothing; any other key, and d when nothing can be left running,
// answer nothing. Every answer closes the question.
func TestQuitAskAnswers(t *testing.T) {
	for _, tc := range []struct {
		name       string
		detachable int
		key        string
		want       []tea.Msg
	}{
		{"q", 1, "q", []tea.Msg{quitAnswer{false}}},
		{"ctrl+c", 1, "ctrl+c", []tea.Msg{quitAnswer{false}}},
		{"d", 1, "d", []tea.Msg{quitAnswer{true}}},
		{"esc", 1, "esc", nil},
		{"stray key", 1, "y", nil},
		{"d with nothing detachable", 0, "d", nil},
	} {
		q := ask(2, tc.detachable, 80)
		msgs := messages(q.Update(press(tc.key)))
		var closed bool
		var answers []tea.Msg
		for _, m := range msgs {
			if c, ok := m.(Close); ok && c.Layer == Layer(q) {
				closed = true
				continue
			}
			answers = append(answers, m)
		}
		answered := tc.want != nil || tc.key == "esc"
		if closed != answered {
			t.Errorf("%s: closed %v, want %v", tc.name, closed, answered)
		}
		if len(answers) != len(tc.want) || (len(tc.want) == 1 && answers[0] != tc.want[0]) {
			t.Errorf("%s: answered %v, want %v", tc.name, answers, tc.want)
		}
	}
	q := ask(2, 0, 80)
	if msgs := messages(q.Update(tea.WindowSizeMsg{Width: 10})); msgs != nil {
		t.Errorf("a message that is not a key answered the question: %v", msgs)
	}
	// The root's ctrl+c on the open question, and a detach asked for
	// where nothing can be left running, quit stopping everything.
	for _, cmd := range []tea.Cmd{q.Quit(), q.Choose(true)} {
		msgs := messages(cmd)
		if len(msgs) != 2 || msgs[1] != (quitAnswer{false}) {
			t.Errorf("quit answered %v, want the question closed and quit stopping them", msgs)
		}
	}
}

// On a narrow terminal the question wraps within the width, and when
// its place is shorter than the wrapped text, the end (the keys) stays.
func TestQuitAskFitsItsPlace(t *testing.T) {
	q := ask(3, 1, 24)
	lines := strings.Split(ansi.Strip(q.View()), "\n")
	if len(lines) < 4 {
		t.Fatalf("the question did not wrap at 24 columns: %q", lines)
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 24 {
			t.Errorf("a line is %d wide at 24: %q", w, l)
		}
	}
	q.SetSize(24, 2)
	lines = strings.Split(ansi.Strip(q.View()), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[1], "esc stay") {
		t.Errorf("in two rows the question shows %q, want its last two lines", lines)
	}
	if got := q.Keys.Stay.Keys(); len(got) != 1 || got[0] != "esc" || !key.Matches(press("esc"), q.Keys.Stay) {
		t.Errorf("stay is bound to %v", got)
	}
}
