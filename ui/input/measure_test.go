package input

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// TestLineRowsAsTheTextareaWraps: a line's rows, short cut or not, are
// the rows the textarea wraps it to, for lines of every kind of
// character (wide, combining, tabs, spaces in runs) at many widths.
func TestLineRowsAsTheTextareaWraps(t *testing.T) {
	pieces := []string{"a", "word", " ", "  ", "\t", "界", "😀", "e\u0301", "🇫🇷", "☺\ufe0f", "longerword", "-", "x"}
	rng := rand.New(rand.NewPCG(1, 2))
	m := New(DefaultKeyMap(), nil)
	for range 3000 {
		width := 6 + rng.IntN(120)
		m.SetSize(width)
		var b strings.Builder
		for range rng.IntN(80) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		line := b.String()
		m.measure.SetValue(line)
		want := max(m.measure.LineInfo().Height, 1)
		if got := m.lineRows(line); got != want {
			t.Fatalf("width %d, %q: %d rows, the textarea wraps it to %d", width, line, got, want)
		}
	}
}

// TestTypingDoesNotRebuildTheMeasure: a key in a short prompt costs no
// measuring textarea's 10,000-line room (what made every key allocate
// a quarter of a megabyte).
func TestTypingDoesNotRebuildTheMeasure(t *testing.T) {
	m := New(DefaultKeyMap(), nil)
	m.SetSize(100)
	m.Set("hello")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 10 {
		m.fitHeight()
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / 10; per > 16<<10 {
		t.Errorf("fitting a one-word prompt allocates %d bytes", per)
	}
}
