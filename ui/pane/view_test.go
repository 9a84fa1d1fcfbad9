package pane

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// TestLinesFitWidth draws every state at every width from 20 to 250
// where its lines are cut (every tenth width beyond that), focused or
// not, and checks no line is wider than the pane and View draws the
// lines Want asks for.
func TestLinesFitWidth(t *testing.T) {
	for _, sc := range scenarios {
		p := newPane()
		play(p, sc.events())
		for _, focused := range []bool{false, true} {
			if focused {
				p.Focus()
			}
			for _, width := range cuttingWidths(p, 20, 250) {
				w, h := width, 6
				view := p.View(w, h)
				lines := strings.Split(view, "\n")
				want := p.Want(w)
				if got := strings.Count(p.View(w, want), "\n") + 1; got != want || len(lines) > h || want > MaxLines {
					t.Fatalf("%s at %d: View has %d lines in the %d Want asks for, %d in %d", sc.name, width, got, want, len(lines), h)
				}
				for _, line := range append(lines, p.HeaderLine(w), p.summary(w)) {
					if w := ansi.StringWidth(line); w > width {
						t.Fatalf("%s at %d (focused %v): line %q is %d wide", sc.name, width, focused, ansi.Strip(line), w)
					}
				}
			}
		}
	}
}

// cuttingWidths are the widths from lo to hi worth drawing p at: every
// one up to just past the widest line p draws uncut, where lines are
// cut, then every tenth, where nothing is.
func cuttingWidths(p *Pane, lo, hi int) []int {
	wide := 10 * hi
	natural := 0
	for _, line := range append(strings.Split(p.View(wide, MaxLines), "\n"), p.HeaderLine(wide), p.summary(wide)) {
		natural = max(natural, ansi.StringWidth(line))
	}
	var out []int
	for w := lo; w <= hi; w++ {
		if w <= natural+2 || w%10 == 0 {
			out = append(out, w)
		}
	}
	return out
}

// TestHeaderOnly: a pane given one line draws its header alone.
func TestHeaderOnly(t *testing.T) {
	p := newPane()
	play(p, tooling())
	w, h := 80, 1
	if strings.Contains(p.View(w, h), "\n") {
		t.Fatalf("height 1: View = %q", p.View(w, h))
	}
	h = 3
	got := strings.Split(ansi.Strip(p.View(w, h)), "\n")
	if len(got) != 3 || !strings.Contains(got[2], `▸ grep "func Login"`) || !strings.Contains(got[1], "grep TODO internal/auth (3 matches)") {
		t.Fatalf("height 3: the newest activity should show, got %q", got)
	}
}

// TestElapsed ticks while the child runs, hides while it waits for the
// person, and freezes at the finish.
func TestElapsed(t *testing.T) {
	p := newPane()
	w := 120
	play(p, tooling())
	p.SetNow(t0.Add(11 * time.Second))
	if h := ansi.Strip(p.HeaderLine(w)); !strings.Contains(h, "5 tools, 10.0s · step 6/15 · 1.2k tok") {
		t.Errorf("running header = %q, want 10.0s since the start", h)
	}
	p.SetNow(t0.Add(126 * time.Second))
	if h := ansi.Strip(p.HeaderLine(w)); !strings.Contains(h, "2m05s") {
		t.Errorf("running header = %q, want 2m05s", h)
	}

	play(p, waiting()[len(tooling()):])
	if h := ansi.Strip(p.HeaderLine(w)); !strings.Contains(h, "5 tools, waiting for approval") || strings.Contains(h, "2m05s") {
		t.Errorf("waiting header = %q, want no clock", h)
	}

	p = newPane()
	play(p, finished(event.StatusCompleted, ""))
	before := p.summary(w)
	p.SetNow(t0.Add(time.Hour))
	if p.summary(w) != before || p.Info().Elapsed != 5100*time.Millisecond {
		t.Errorf("a finished pane's time moved: %q → %q, Info.Elapsed %v", ansi.Strip(before), ansi.Strip(p.summary(w)), p.Info().Elapsed)
	}
}

// TestElapsedWithoutStats times a child from its events when the engine
// gives no duration.
func TestElapsedWithoutStats(t *testing.T) {
	p := newPane()
	play(p, append(started(), event.AgentFinished{Meta: at(4500 * time.Millisecond), Status: event.StatusCancelled}))
	if got := p.Info().Elapsed; got != 3500*time.Millisecond {
		t.Errorf("Elapsed = %v, want 3.5s from start to finish", got)
	}
	if s := ansi.Strip(p.summary(0)); s != "■ #1 [Explore] find auth code - stopped (0 tools, 3.5s)" {
		t.Errorf("Summary = %q", s)
	}
}

// TestFocusAndSpinner: the focused pane carries the cursor on every line;
// the root's spinner frame is the running mark.
func TestFocusAndSpinner(t *testing.T) {
	p := newPane()
	w, h := 80, 4
	play(p, tooling())
	p.SetSpinnerFrame("⣾ ")
	if h := ansi.Strip(p.HeaderLine(w)); !strings.HasPrefix(h, "⣾ #1 [Explore] find auth code ... ") {
		t.Errorf("header = %q, want the spinner frame first", h)
	}
	p.Focus()
	if !p.Focused() {
		t.Fatal("Focused() = false after Focus")
	}
	for _, line := range strings.Split(ansi.Strip(p.View(w, h)), "\n") {
		if !strings.HasPrefix(line, "▌ ") {
			t.Errorf("focused line %q has no cursor", line)
		}
	}
	p.Blur()
	if p.Focused() || strings.Contains(p.View(w, h), "▌") {
		t.Error("the cursor stayed after Blur")
	}
}

// TestSummaryWithoutRun: a child that never ran shows no stats, and cost
// shows only when known.
func TestSummaryWithoutRun(t *testing.T) {
	for _, sc := range scenarios {
		if sc.name != "denied" && sc.name != "failed" {
			continue
		}
		p := newPane()
		play(p, sc.events())
		s := ansi.Strip(p.summary(0))
		if sc.name == "denied" && strings.Contains(s, "(") {
			t.Errorf("denied summary %q shows stats", s)
		}
		if sc.name == "failed" && strings.Contains(s, "$") {
			t.Errorf("failed summary %q shows an unknown cost", s)
		}
	}
}

// TestOutcomesReadApart: with colour, each final state's mark has its own
// glyph, and failed, timed out, stopped and denied their own colour.
func TestOutcomesReadApart(t *testing.T) {
	defer lipgloss.SetColorProfile(lipgloss.ColorProfile())
	lipgloss.SetColorProfile(termenv.TrueColor)
	marks := map[string]State{}
	colours := map[string]State{}
	for _, sc := range scenarios {
		p := newPane()
		play(p, sc.events())
		if !sc.state.Finished() {
			continue
		}
		s := p.summary(0)
		mark, _, _ := strings.Cut(ansi.Strip(s), " ")
		if other, dup := marks[mark]; dup {
			t.Errorf("%v and %v share the mark %q", sc.state, other, mark)
		}
		marks[mark] = sc.state
		styled, _, _ := strings.Cut(s, mark)
		switch sc.state {
		case Failed, TimedOut, Cancelled, Denied, Done:
			if other, dup := colours[styled]; dup || styled == "" {
				t.Errorf("%v and %v share the colour %q", sc.state, other, styled)
			}
			colours[styled] = sc.state
		}
	}
}

// TestTypeColour: a type keeps its colour whatever the pane's number.
func TestTypeColour(t *testing.T) {
	defer lipgloss.SetColorProfile(lipgloss.ColorProfile())
	lipgloss.SetColorProfile(termenv.TrueColor)
	a, b := newPane(), New(event.Meta{Agent: "explore-2", AgentType: "explore", Description: "x"}, 7, nil)
	if a.label.Render("[Explore]") != b.label.Render("[Explore]") {
		t.Error("two Explore panes have different colours")
	}
	if !strings.Contains(a.HeaderLine(0), a.label.Render("[Explore]")) {
		t.Error("the header does not draw the type in its colour")
	}
}

// TestStreamingTail: however long the message, the pane shows its newest
// words, wide characters included, within the width.
func TestStreamingTail(t *testing.T) {
	p := newPane()
	play(p, started())
	long := strings.Repeat("認証のコードを探しています。 ", 400) + "the newest words"
	for i := 0; i < len(long); i += 97 {
		p.Apply(event.TextDelta{Meta: at(2 * time.Second), Text: long[i:min(i+97, len(long))]})
	}
	for width := 20; width <= 120; width++ {
		w, h := width, 4
		lines := strings.Split(ansi.Strip(p.View(w, h)), "\n")
		if len(lines) != 4 || !strings.HasSuffix(lines[3], "words") {
			t.Fatalf("at %d: %q, want three lines ending with the newest words", width, lines)
		}
		for _, line := range lines {
			if ansi.StringWidth(line) > width {
				t.Fatalf("at %d: line %q too wide", width, line)
			}
		}
	}
}
