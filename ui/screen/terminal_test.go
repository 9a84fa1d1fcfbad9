package screen

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// terminal is a small VT100 screen: it understands what a Screen writes
// (text, CR, LF, cursor home, erasing, the scroll region and scrolling
// up) and ignores styles, so a test can read what a person would see.
// Anything else it is sent fails the test: a Screen must not rely on
// sequences the model here does not know.
type terminal struct {
	t             *testing.T
	width, height int
	rows          [][]cell
	row, col      int
	top, bottom   int    // the scroll region, rows inclusive
	style         string // the SGR sequences since the last reset
}

// cell is a character on the screen and the styles it was written in.
type cell struct {
	r     rune
	style string
}

func newTerminal(t *testing.T, width, height int) *terminal {
	term := &terminal{t: t, width: width, height: height, bottom: height - 1}
	term.rows = make([][]cell, height)
	for i := range term.rows {
		term.rows[i] = term.blank()
	}
	return term
}

// blank is an empty row: erasing fills with spaces in the current style
// (a terminal paints them in its background colour).
func (term *terminal) blank() []cell {
	row := make([]cell, term.width)
	for i := range row {
		row[i] = cell{' ', term.style}
	}
	return row
}

// write plays out what a Screen wrote.
func (term *terminal) write(out string) {
	for i := 0; i < len(out); {
		switch c := out[i]; {
		case c == '\r':
			term.col = 0
			i++
		case c == '\n':
			term.lineFeed()
			i++
		case c == 0x1b && i+1 < len(out) && out[i+1] == '[':
			j := i + 2
			for j < len(out) && (out[j] < 0x40 || out[j] > 0x7e) {
				j++
			}
			term.csi(out[i+2:j], out[j])
			i = j + 1
		case c < 0x20:
			term.t.Fatalf("the terminal got control byte %#x in %q", c, out)
		default:
			r, size := []rune(out[i:])[0], len(string([]rune(out[i:])[0]))
			term.put(r)
			i += size
		}
	}
}

func (term *terminal) put(r rune) {
	if term.col >= term.width {
		term.t.Fatalf("a line ran past the right edge")
	}
	term.rows[term.row][term.col] = cell{r, term.style}
	term.col++
}

func (term *terminal) lineFeed() {
	if term.row == term.bottom {
		term.scrollUp(1)
		return
	}
	term.row = min(term.row+1, term.height-1)
}

func (term *terminal) scrollUp(n int) {
	for range n {
		copy(term.rows[term.top:term.bottom], term.rows[term.top+1:term.bottom+1])
		term.rows[term.bottom] = term.blank()
	}
}

func (term *terminal) csi(params string, final byte) {
	if strings.HasPrefix(params, "?") {
		return // modes
	}
	var args []int
	for _, p := range strings.Split(params, ";") {
		n, _ := strconv.Atoi(p)
		args = append(args, n)
	}
	arg := func(i, def int) int {
		if i < len(args) && args[i] > 0 {
			return args[i]
		}
		return def
	}
	switch final {
	case 'm':
		if params == "" || params == "0" {
			term.style = ""
		} else {
			term.style += "\x1b[" + params + "m"
		}
	case 'G':
		term.col = min(arg(0, 1)-1, term.width)
	case 'H':
		term.row, term.col = arg(0, 1)-1, arg(1, 1)-1
	case 'K':
		for c := min(term.col, term.width); c < term.width; c++ {
			term.rows[term.row][c] = cell{' ', term.style}
		}
	case 'J':
		from := term.row + 1
		if arg(0, 0) == 2 {
			from = 0
		} else {
			term.csi("", 'K')
		}
		for r := from; r < term.height; r++ {
			term.rows[r] = term.blank()
		}
	case 'r':
		term.top, term.bottom = arg(0, 1)-1, arg(1, term.height)-1
		term.row, term.col = 0, 0
	case 'S':
		term.scrollUp(arg(0, 1))
	default:
		term.t.Fatalf("the terminal got CSI %q %c", params, final)
	}
}

// shows is what the screen holds, row by row, trailing blanks dropped.
func (term *terminal) shows() string {
	lines := make([]string, term.height)
	for i, row := range term.rows {
		var b strings.Builder
		for _, c := range row {
			b.WriteRune(c.r)
		}
		lines[i] = strings.TrimRight(b.String(), " ")
	}
	return strings.Join(lines, "\n")
}

// styled is what the screen holds with the styles of its characters:
// the styles of blanks do not show unless they colour a background.
func (term *terminal) styled() string {
	var b strings.Builder
	for _, row := range term.rows {
		for _, c := range row {
			if c.r != ' ' || strings.Contains(c.style, "[4") {
				fmt.Fprintf(&b, "%c%q", c.r, c.style)
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// fresh is how a terminal shows frame drawn whole on a cleared screen.
func fresh(t *testing.T, frame string, width, height int) *terminal {
	term := newTerminal(t, width, height)
	var out strings.Builder
	s := New(&out, Modes{})
	s.Open()
	s.Resize(width, height)
	s.Draw(frame)
	term.write(out.String())
	return term
}

// want is what a frame should look like on a terminal of width×height:
// styles stripped, lines cut to the width, trailing blanks dropped, blank
// rows under it.
func want(frame string, width, height int) string {
	lines := strings.Split(ansi.Strip(frame), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(ansi.Truncate(lines[i], width, ""), " ")
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines[len(lines)-height:], "\n")
}

// After every frame the terminal shows that frame, in its styles,
// whatever changed: a conversation growing a line or several at a time
// under a fixed header (which the screen scrolls), lines that repeat, a
// styled line growing at its end (which the screen writes from where it
// changed), a status line ticking, lines edited in place, and a resize to
// the same size.
func TestTheTerminalShowsEveryFrame(t *testing.T) {
	const width, height = 30, 12
	rng := rand.New(rand.NewPCG(1, 2))
	var out strings.Builder
	s := New(&out, Modes{})
	s.Open()
	s.Resize(width, height)
	term := newTerminal(t, width, height)
	out.Reset()
	var convo []string
	word := 0
	scrolled, resumed := 0, 0
	for frame := range 400 {
		switch n := rng.IntN(10); {
		case n < 5: // the answer grows by a line or a few
			for range 1 + rng.IntN(3) {
				word++
				convo = append(convo, fmt.Sprintf("\x1b[38;5;%dmline %d\x1b[0m of the answer", word%200, word))
			}
		case n < 7 && len(convo) > 0: // the open line grows in place, in its style
			last := strings.TrimSuffix(convo[len(convo)-1], "\x1b[0m")
			convo[len(convo)-1] = last + []string{" more", " \x1b[1mbold\x1b[22m", " ·", " \x1b[0mplain", " 日本"}[rng.IntN(5)] + "\x1b[0m"
		case n < 8 && len(convo) > 3: // a block is redrawn shorter
			convo = convo[:len(convo)-rng.IntN(3)]
		case n < 9: // lines that repeat: blank ones between blocks, a rule
			convo = append(convo, "", "───", "")
		}
		body := height - 4
		visible := convo[max(len(convo)-body, 0):]
		lines := []string{"header · baton"}
		for range body - len(visible) {
			lines = append(lines, "")
		}
		lines = append(lines, visible...)
		lines = append(lines, fmt.Sprintf("\x1b[38;5;3m⠋\x1b[0m \x1b[2mworking · %ds · ↓ %d tok\x1b[0m", frame/10, 3*frame), "╭ > prompt", "enter send")
		if frame == 200 {
			s.Resize(width, height) // the same size: nothing to redraw
		}
		f := strings.Join(lines, "\n")
		s.Draw(f)
		if strings.Contains(out.String(), "S") && strings.Contains(out.String(), "r\x1b[") {
			scrolled++
		}
		if strings.Contains(out.String(), "G") {
			resumed++
		}
		term.write(out.String())
		out.Reset()
		if got, want := term.shows(), want(f, width, height); got != want {
			t.Fatalf("after frame %d the terminal shows\n%s\nwant\n%s", frame, got, want)
		}
		if got, want := term.styled(), fresh(t, f, width, height).styled(); got != want {
			t.Fatalf("after frame %d the terminal's styles differ from the frame's drawn whole:\n%s\nwant\n%s", frame, got, want)
		}
	}
	if scrolled == 0 || resumed == 0 {
		t.Errorf("%d frames scrolled, %d wrote part of a line: the test does not reach both", scrolled, resumed)
	}
}
