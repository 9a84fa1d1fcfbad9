package status

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
)

var (
	t0   = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	main = event.Meta{Agent: event.MainAgent}
)

func newLine(width int) *Model {
	styles := themes.New(themes.Dark())
	m := New(&styles, nil)
	m.SetSize(width)
	m.Tick("⣾ ", t0)
	return m
}

// scenarios put a fresh line into each state it shows.
var scenarios = map[string]func(m *Model){
	"idle": func(*Model) {},
	"working": func(m *Model) {
		m.Update(event.TurnStarted{Meta: main, Prompt: "go"})
		m.Update(event.StepStarted{Meta: main, Step: 3, Max: 50})
		m.Update(event.TextDelta{Meta: main, Text: "the loop"})
		m.Update(event.UsageReported{Meta: main, Request: event.Usage{CompletionTokens: 1250}})
		m.Tick("⣽ ", t0.Add(14*time.Second))
	},
	"compacting": func(m *Model) {
		m.SetWorking(true)
		m.Compacting(true, true)
		m.Tick("⣽ ", t0.Add(3*time.Second))
	},
	"notice": func(m *Model) {
		m.SetWorking(true)
		m.Update(event.Notice{Meta: main, Text: "context 91% full: old tool results are elided from the next request"})
	},
	"retry": func(m *Model) {
		m.SetWorking(true)
		m.Update(event.Retrying{Meta: main, Attempt: 1, Attempts: 3, At: t0.Add(12 * time.Second), Reason: "provider error (503)"})
	},
	"error": func(m *Model) { m.Set(Error, "stream completion: 401 Unauthorized") },
}

// TestGolden compares the plain line in each state with
// testdata/TestGolden/*.golden; -update rewrites them.
func TestGolden(t *testing.T) {
	for name, scenario := range scenarios {
		for _, width := range []int{60, 80, 120} {
			t.Run(fmt.Sprintf("%s_%d", name, width), func(t *testing.T) {
				m := newLine(width)
				scenario(m)
				view := m.View()
				if w := ansi.StringWidth(view); w > width {
					t.Errorf("line is %d cells wide at %d", w, width)
				}
				golden.RequireEqual(t, []byte(ansi.Strip(view)+"\n"))
			})
		}
	}
}

// Startup warnings are joined on one line, cleaned of escapes.
func TestStartupNotices(t *testing.T) {
	styles := themes.New(themes.Dark())
	m := New(&styles, []string{"agent file a.md skipped", "\x1b[31mred\x1b[0m"})
	if m.Text() != "agent file a.md skipped · red" || m.Level() != Warning {
		t.Errorf("startup notice %q (level %d)", m.Text(), m.Level())
	}
}

// A transient notice ends with what it waited for and nothing else.
func TestTransientEnds(t *testing.T) {
	m := newLine(80)
	m.SetTransient(Info, "queued", Turn, "")
	m.Settle(Card)
	if m.Text() != "queued" {
		t.Fatalf("a card cleared a notice that waited for the turn")
	}
	m.Update(event.TurnEnded{Meta: main, Status: event.StatusCompleted})
	if m.Text() != "" {
		t.Errorf("the turn's end left %q", m.Text())
	}
	m.Update(event.TurnEnded{Meta: main, Status: event.StatusInterrupted})
	if m.Text() != "interrupted" {
		t.Errorf("an interrupted turn says %q", m.Text())
	}

	m.SetTransient(Warning, "stopping every sub-agent…", Child, AllChildren)
	m.ChildEnded("explore-1", true, "explore-1 stopped")
	if m.Text() != "stopping every sub-agent…" {
		t.Fatalf("one child's end answered a notice for all: %q", m.Text())
	}
	m.ChildEnded("explore-2", false, "explore-2 stopped")
	if m.Text() != "every sub-agent stopped" {
		t.Errorf("the last child's end says %q", m.Text())
	}
	m.SetTransient(Warning, "stopping explore-3…", Child, "explore-3")
	m.ChildEnded("explore-3", false, "explore-3 stopped")
	if m.Text() != "explore-3 stopped" {
		t.Errorf("the child's end says %q", m.Text())
	}
}

// Acknowledgements expire on the clock; a notice that waits for the turn
// does not; a new turn clears what the last one left, but not a stop of
// a child under way.
func TestExpiry(t *testing.T) {
	m := newLine(80)
	m.Set(Info, "allowed once")
	if !m.Expiring() {
		t.Fatal("an acknowledgement does not expire")
	}
	m.Tick("", t0.Add(InfoTTL-time.Second))
	if m.Expire(); m.Text() != "allowed once" {
		t.Fatalf("gone early: %q", m.Text())
	}
	m.Tick("", t0.Add(InfoTTL))
	if m.Expire() || m.Text() != "" {
		t.Fatalf("outlived its time: %q", m.Text())
	}
	m.SetTransient(Info, "queued", Turn, "")
	m.Tick("", t0.Add(time.Hour))
	if m.Expire() || m.Text() != "queued" {
		t.Errorf("a notice for the turn expired: %q", m.Text())
	}
	m.Update(event.TurnEnded{Meta: main, Status: event.StatusInterrupted})
	m.Update(event.TurnStarted{Meta: main, Prompt: "again"})
	if m.Text() != "" {
		t.Errorf("the last turn's %q shows in the next", m.Text())
	}
	m.SetTransient(Warning, "stopping explore-1…", Child, "explore-1")
	m.Update(event.TurnStarted{Meta: main, Prompt: "more"})
	if m.Text() == "" {
		t.Error("a new turn cleared a stop still under way")
	}
}

// The working line's measurements give way at 60 columns; "esc to
// interrupt" and the notice stay.
func TestWorkingLineNarrow(t *testing.T) {
	m := newLine(60)
	m.Update(event.TurnStarted{Meta: main, Prompt: "go"})
	m.Tick("⣽ ", t0.Add(5*time.Second))
	m.Update(event.TextDelta{Meta: main, Text: "hello there"})
	m.Tick("⣽ ", t0.Add(12*time.Second))
	m.SetTransient(Info, "queued; it is sent when the turn ends", Turn, "")
	got := ansi.Strip(m.View())
	if !strings.Contains(got, "esc to interrupt") || !strings.Contains(got, "queued") {
		t.Errorf("at 60 columns: %q", got)
	}
	m.Update(event.TurnEnded{Meta: main, Status: event.StatusCompleted})
	if strings.Contains(ansi.Strip(m.View()), "working") {
		t.Errorf("the working line stayed after the turn: %q", m.View())
	}
}

// A retry's countdown follows the clock and goes once the retried
// request answers.
func TestRetryCountdown(t *testing.T) {
	m := newLine(120)
	m.Update(event.Retrying{Meta: main, Attempt: 2, Attempts: 3, At: t0.Add(30 * time.Second), Reason: "rate \x1b[2Jlimited"})
	if got := ansi.Strip(m.View()); got != "retrying in 30s (2/3) · rate limited" {
		t.Fatalf("countdown %q", got)
	}
	m.Tick("⣽ ", t0.Add(25*time.Second))
	if got := ansi.Strip(m.View()); got != "retrying in 5s (2/3) · rate limited" {
		t.Fatalf("countdown after 25 s %q", got)
	}
	m.Update(event.TextDelta{Meta: main, Text: "hi"})
	if got := ansi.Strip(m.View()); got != "" {
		t.Errorf("the countdown stayed after the answer: %q", got)
	}
}
