package markdown

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// streamAll feeds doc to a stream in pieces cut at the given sizes and
// checks after each that the finished lines only ever grow: a line drawn
// for a finished block never changes. It returns the stream.
func streamAll(t *testing.T, r *Renderer, doc string, width int, sizes func() int) *Stream {
	t.Helper()
	s := r.NewStream()
	var before []string
	for n := 0; n < len(doc); {
		n = min(n+sizes(), len(doc))
		out := s.Lines(doc[:n], width)
		if !slices.Equal(s.lines[:len(before)], before) {
			t.Fatalf("at %d bytes a finished line changed:\nbefore %q\nafter  %q", n, before, s.lines[:len(before)])
		}
		if !slices.Equal(out[:len(s.lines)], s.lines) {
			t.Fatalf("at %d bytes the drawing does not start with the finished lines", n)
		}
		before = slices.Clone(s.lines)
	}
	return s
}

// A streamed message ends as it streamed: the finished blocks' lines are
// the first lines of the final rendering, byte for byte, and a message
// whose every block is finished streams to exactly its rendering.
func TestStreamNeverJumps(t *testing.T) {
	plainProfile(t)
	docs := []string{rich, rich + "\n", tricky}
	for _, width := range []int{60, 80, 120} {
		for _, doc := range docs {
			for _, sizes := range []func() int{
				func() int { return 1 },
				func() int { return 7 },
				func() int { return 1 + rand.IntN(40) },
			} {
				r := newRenderer()
				s := streamAll(t, r, doc, width, sizes)
				final := r.Render(doc, width)
				if len(s.lines) == 0 || !slices.Equal(final[:len(s.lines)], s.lines) {
					t.Fatalf("width %d: final rendering differs from the streamed blocks:\nstreamed %q\nfinal    %q", width, s.lines, final)
				}
			}
		}
	}
	r := newRenderer()
	closedDoc := "para one\n\n```\ncode\n```\n"
	s := streamAll(t, r, closedDoc, 80, func() int { return 1 })
	if got, want := s.Lines(closedDoc, 80), r.Render(closedDoc, 80); !slices.Equal(got, want) {
		t.Fatalf("a message of finished blocks streams to %q, renders to %q", got, want)
	}
}

// tricky holds lines whose first characters read as one block and whose
// rest as another, and blocks that later lines extend.
const tricky = "para\n```x`y` still para\n\n" +
	"para\n***not a rule***\n\n" +
	"setext\n---\n\n" +
	"- loose\n\n- list\n\n  continued\n\n" +
	"> quote\nlazy line\n\n" +
	"````\n```\nstill code\n````\n" +
	"    indented\n\n    more\n\nend\n"

// Each finished block is drawn once while streaming, and the final
// rendering draws only what was still open.
func TestStreamDrawsBlocksOnce(t *testing.T) {
	plainProfile(t)
	r := newRenderer()
	doc := rich + "\n" // its last line complete, only the last paragraph is open
	streamAll(t, r, doc, 80, func() int { return 3 })
	draws := len(r.cache)
	blocks := len(r.split(doc))
	if draws != blocks-1 {
		t.Fatalf("streaming drew %d blocks, want the %d finished ones", draws, blocks-1)
	}
	r.Render(doc, 80)
	if len(r.cache) != blocks {
		t.Fatalf("final rendering left %d drawn blocks, want %d", len(r.cache), blocks)
	}
}

// The open block shows as its raw text, wrapped, after the finished ones.
func TestStreamTailRaw(t *testing.T) {
	plainProfile(t)
	s := newRenderer().NewStream()
	got := s.Lines("**done** para\n\n```go\nfunc f() {\n    *x* = 1", 80)
	want := []string{"done para", "", "```go", "func f() {", "    *x* = 1"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	got = s.Lines("**done** para\n\n```go\nfunc f() {\n    *x* = 1\n}\n```\n", 80)
	want = []string{"done para", "", "  func f() {", "      *x* = 1", "  }"}
	if !slices.Equal(got, want) {
		t.Fatalf("closed fence: got %q, want %q", got, want)
	}
}

func TestFenceClosed(t *testing.T) {
	for text, want := range map[string]bool{
		"```\ncode\n```":       true,
		"```go\ncode\n```":     true,
		"~~~\ncode\n~~~~":      true,
		"````\ncode\n```":      false,
		"```\ncode\n~~~":       false,
		"```\ncode":            false,
		"```\ncode\n``` x":     false,
		"```\ncode\n    ```":   false,
		strings.Repeat("`", 3): false,
	} {
		if got := fenceClosed(text); got != want {
			t.Errorf("fenceClosed(%q) = %v, want %v", text, got, want)
		}
	}
}

// Last is the end of Lines for a short open block, and for a long line
// of plain text, wrapped as it grows; of a long line of anything else (a
// tab) it wraps only the end, and its lines stay put while the line
// grows.
func TestStreamLast(t *testing.T) {
	plainProfile(t)
	r := newRenderer()
	doc := rich[:400]
	want := r.NewStream().Lines(doc, 60)
	if got := r.NewStream().Last(doc, 60, 5); !slices.Equal(got, want[len(want)-5:]) {
		t.Errorf("Last = %q, want %q", got, want[len(want)-5:])
	}
	s := r.NewStream()
	long := rich + "\n\nand " + strings.Repeat("a long open paragraph ", 200)
	for _, text := range []string{long, long + "with", long + "with more"} {
		want := r.NewStream().Lines(text, 60)
		if got := s.Last(text, 60, 5); !slices.Equal(got, want[len(want)-5:]) {
			t.Errorf("Last of a growing plain line = %q, want the end of Lines %q", got, want[len(want)-5:])
		}
	}
	s = r.NewStream()
	rough := rich + "\n\nand\t" + strings.Repeat("a long open paragraph ", 200)
	before := slices.Clone(s.Last(rough, 60, 5))
	after := s.Last(rough+"with more", 60, 5)
	if len(after) != 5 || !strings.HasSuffix(after[4], "with more") || !slices.Equal(before[:4], after[:4]) {
		t.Errorf("Last of a growing line moved:\nbefore %q\nafter  %q", before, after)
	}
}

// A stream handed a shorter text (another message) starts over rather
// than slicing past its end.
func TestStreamShorterTextStartsOver(t *testing.T) {
	plainProfile(t)
	s := newRenderer().NewStream()
	s.Lines(rich, 80)
	if got := s.Lines("# new\n\nshort", 80); !slices.Equal(got, []string{"# new", "", "short"}) {
		t.Fatalf("got %q", got)
	}
}

// TestLastShorterAfterLonger draws a stream's last lines for a pane at
// its full height and then shorter, as the root measures and then draws
// it: the shorter drawing is the tail of the whole message's, not wrapped
// again.
func TestLastShorterAfterLonger(t *testing.T) {
	text := "First paragraph of the answer.\n\n- one\n- two\n\nThe open paragraph keeps growing with words that wrap at twenty columns"
	for _, n := range []int{1, 2, 3, 6} {
		fresh := newRenderer().NewStream()
		all := newRenderer().NewStream().Lines(text, 20)
		want := all[len(all)-n:]
		s := newRenderer().NewStream()
		s.Last(text, 20, 10)
		if got := s.Last(text, 20, n); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("n=%d after n=10:\n%q\nwant\n%q", n, got, want)
		}
		if got := s.Last(text+" more", 20, n); strings.Join(got, "\n") != strings.Join(fresh.Last(text+" more", 20, n), "\n") {
			t.Errorf("n=%d after the text grew:\n%q", n, got)
		}
	}
}

// The line being written is wrapped from its last wrapped line on, the
// lines before kept: after every delta it draws exactly as the whole
// line wrapped afresh, for words of every length (wider than the line
// too), runs of spaces, an indent, wide characters and escapes.
func TestOpenLineGrowsAsWrappedAfresh(t *testing.T) {
	plainProfile(t)
	words := []string{"a", "word", "longer-word", "x", "日本語の文", "🙂🙂", strings.Repeat("y", 45), "  ", "\x1b[31mred\x1b[0m"}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, width := range []int{1, 7, 40} {
		for round := range 12 {
			var b strings.Builder
			if round%3 == 0 {
				b.WriteString("   ") // an indent
			}
			for range 30 {
				b.WriteString(words[rng.IntN(len(words))])
				b.WriteString(strings.Repeat(" ", 1+rng.IntN(2)))
			}
			if round%5 == 0 {
				b.WriteString("\x1b]0;title\x07end")
			}
			doc := "a first paragraph\n\n" + b.String()
			r := newRenderer()
			s := r.NewStream()
			for n := 0; n < len(doc); {
				n = min(n+1+rng.IntN(9), len(doc))
				got := s.Lines(doc[:n], width)
				want := r.NewStream().Lines(doc[:n], width)
				if !slices.Equal(got, want) {
					t.Fatalf("width %d, %d bytes: streamed\n%q\nwrapped afresh\n%q", width, n, got, want)
				}
				whole := s.wrapRaw(doc[max(s.whole, s.done):n])
				for len(whole) > 0 && whole[len(whole)-1] == "" {
					whole = whole[:len(whole)-1] // as raw drops them
				}
				if tail := got[len(got)-len(whole):]; len(whole) > 0 && !slices.Equal(tail, whole) {
					t.Fatalf("width %d, %d bytes: the open line draws\n%q\nnot\n%q", width, n, tail, whole)
				}
			}
		}
	}
}

// Last of a line of plain text growing delta by delta is, after every
// delta, the end of what Lines draws of the whole: a pane shows what the
// conversation would, however long the line grows.
func TestLastOfAGrowingLineIsTheEndOfLines(t *testing.T) {
	plainProfile(t)
	words := []string{"a", "word", "longer-word", "日本語の文", "🙂🙂", strings.Repeat("y", 45), "  "}
	rng := rand.New(rand.NewPCG(3, 4))
	r := newRenderer()
	for _, width := range []int{7, 40} {
		for _, n := range []int{1, 3} {
			s := r.NewStream()
			text := "a first paragraph\n\n"
			for range 300 {
				text += words[rng.IntN(len(words))] + " "
				want := r.NewStream().Lines(text, width)
				want = want[max(len(want)-n, 0):]
				if got := s.Last(text, width, n); !slices.Equal(got, want) {
					t.Fatalf("width %d, n %d, after %d bytes: Last = %q, want %q", width, n, len(text), got, want)
				}
			}
		}
	}
}
