package screen

import (
	"bytes"
	"strings"
	"testing"
)

// opened is a Screen of 20×4 on a buffer, with what Open wrote dropped.
func opened(t *testing.T, modes Modes) (*Screen, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	s := New(&out, modes)
	s.Open()
	s.Resize(20, 4)
	out.Reset()
	return s, &out
}

func TestOpenAndCloseSwitchModes(t *testing.T) {
	var out bytes.Buffer
	s := New(&out, Modes{Mouse: true, Focus: true})
	s.Open()
	for _, seq := range []string{"\x1b[?1049h", "\x1b[?25l", "\x1b[?2004h", "\x1b[?1002h", "\x1b[?1006h", "\x1b[?1004h"} {
		if !strings.Contains(out.String(), seq) {
			t.Errorf("Open did not write %q", seq)
		}
	}
	out.Reset()
	s.Close()
	if out.String() != Leave {
		t.Errorf("Close wrote %q, want Leave", out.String())
	}
	out.Reset()
	s.Close()
	s.Draw("late")
	if out.Len() != 0 {
		t.Errorf("a closed screen wrote %q", out.String())
	}
}

func TestMouseOffLeavesTheMouseAlone(t *testing.T) {
	var out bytes.Buffer
	New(&out, Modes{}).Open()
	if strings.Contains(out.String(), "\x1b[?1002h") || strings.Contains(out.String(), "\x1b[?1004h") {
		t.Errorf("reports switched on that were not asked for: %q", out.String())
	}
}

// The first frame is drawn whole on a cleared screen; the next writes
// only the line that changed, and an unchanged frame writes nothing.
func TestDrawWritesWhatChanged(t *testing.T) {
	s, out := opened(t, Modes{})
	s.Draw("one\ntwo\nthree")
	first := out.String()
	for _, want := range []string{"\x1b[2J", "one", "two", "three"} {
		if !strings.Contains(first, want) {
			t.Errorf("first frame %q lacks %q", first, want)
		}
	}
	out.Reset()
	s.Draw("one\nTWO\nthree")
	second := out.String()
	if !strings.Contains(second, "TWO") || strings.Contains(second, "one") || strings.Contains(second, "three") {
		t.Errorf("second frame wrote %q, want only the changed line", second)
	}
	if strings.Contains(second, "\x1b[2J") {
		t.Errorf("second frame cleared the screen: %q", second)
	}
	out.Reset()
	s.Draw("one\nTWO\nthree")
	if out.Len() != 0 {
		t.Errorf("an unchanged frame wrote %q", out.String())
	}
}

// Lines are reached by moving down over the kept ones, so each written
// line starts in column one of its own row.
func TestKeptLinesAreSteppedOver(t *testing.T) {
	s, out := opened(t, Modes{})
	s.Draw("a\nb\nc\nd")
	out.Reset()
	s.Draw("a\nb\nc\nD")
	if got, want := out.String(), "\x1b[H\n\n\nD\x1b[K\r"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}

// A line wider than the terminal is cut; a shorter one erases what was
// right of it; a shorter frame erases the rows below it.
func TestDrawFitsTheTerminal(t *testing.T) {
	s, out := opened(t, Modes{})
	s.Draw(strings.Repeat("x", 30) + "\nshort\nthird")
	got := out.String()
	if strings.Contains(got, strings.Repeat("x", 21)) {
		t.Errorf("a 30-column line was not cut to 20: %q", got)
	}
	if !strings.Contains(got, "short\x1b[K") {
		t.Errorf("a short line does not erase to its right: %q", got)
	}
	out.Reset()
	s.Draw("only")
	if !strings.Contains(out.String(), "\x1b[J") {
		t.Errorf("a shorter frame left the old rows below it: %q", out.String())
	}
}

// A frame taller than the terminal shows its bottom rows.
func TestTallFrameShowsItsBottom(t *testing.T) {
	s, out := opened(t, Modes{})
	s.Draw("1\n2\n3\n4\n5\n6")
	if got := out.String(); strings.Contains(got, "1\x1b[K") || strings.Contains(got, "2\x1b[K") || !strings.Contains(got, "3\x1b[K") || !strings.Contains(got, "6\x1b[K") {
		t.Errorf("wrote %q, want rows 3 to 6", got)
	}
}

// After a resize the next frame is drawn whole, even when it is the same.
func TestResizeRedrawsWhole(t *testing.T) {
	s, out := opened(t, Modes{})
	s.Draw("a\nb")
	s.Resize(30, 5)
	out.Reset()
	s.Draw("a\nb")
	if got := out.String(); !strings.Contains(got, "\x1b[2J") || !strings.Contains(got, "a") || !strings.Contains(got, "b") {
		t.Errorf("after a resize wrote %q, want the whole frame on a cleared screen", got)
	}
}

// A title cannot end its sequence early and smuggle one of its own.
func TestTitleIsCleaned(t *testing.T) {
	s, out := opened(t, Modes{})
	s.Title("baton\x07\x1b]52;c;ZXZpbA==\x07")
	if got := out.String(); strings.Count(got, "\x07") != 1 || strings.Count(got, "\x1b") != 1 {
		t.Errorf("title wrote %q: a control character got through", got)
	}
}

// A line that changed is written from the start of the word that
// changed, in the colours open there, when what comes before can be
// counted; the word is written whole, so typed text is found in the
// output as the screen shows it.
func TestChangedLineIsWrittenFromItsWord(t *testing.T) {
	var out bytes.Buffer
	s := New(&out, Modes{})
	s.Open()
	s.Resize(60, 3)
	prompt := "\x1b[38;5;4m│\x1b[0m > \x1b[1mtype here Z"
	s.Draw("header line\n" + prompt + "\x1b[0m\nfooter")
	out.Reset()
	s.Draw("header line\n" + prompt + "X\x1b[0m\nfooter")
	got := out.String()
	if want := "\x1b[15G\x1b[1mZX\x1b[0m\x1b[K"; !strings.Contains(got, want) || strings.Contains(got, "type") {
		t.Errorf("wrote %q, want the changed word alone, %q", got, want)
	}
	out.Reset()
	s.Draw("header line\n\x1b]8;;x\x1b\\link\x1b]8;;\x1b\\ and more words here\nfooter")
	s.Draw("header line\n\x1b]8;;x\x1b\\link\x1b]8;;\x1b\\ and more words here too\nfooter")
	if got := out.String(); strings.Count(got, "link") != 2 {
		t.Errorf("a line behind an escape that is not a colour was not written whole: %q", got)
	}
}
