// Package screen draws a full-screen program's frames on a terminal
// without a clock. Bubble Tea's own renderer wakes on a ticker thirty
// times a second whether anything changed or not, which is most of what
// an idle baton costs; a Screen writes when it is handed a frame that
// differs from the last, and only the lines that changed. The program
// decides when a frame is due (see ui's frame), so nothing here ticks.
package screen

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// Modes are the terminal features a Screen switches on while it holds
// the terminal, and off again when it gives it back.
type Modes struct {
	// Mouse reports clicks, drags and the wheel (cell motion, SGR).
	Mouse bool
	// Focus reports the terminal gaining and losing focus.
	Focus bool
}

// Sequences that switch the terminal's features on and off.
const (
	enterAltScreen = "\x1b[?1049h" + ansi.EraseEntireScreen + ansi.CursorHomePosition
	leaveAltScreen = "\x1b[?1049l"
	hideCursor     = "\x1b[?25l"
	showCursor     = "\x1b[?25h"
	pasteOn        = "\x1b[?2004h"
	pasteOff       = "\x1b[?2004l"
	mouseOn        = "\x1b[?1002h\x1b[?1006h"
	mouseOff       = "\x1b[?1002l\x1b[?1003l\x1b[?1006l"
	focusOn        = "\x1b[?1004h"
	focusOff       = "\x1b[?1004l"
)

// Leave is what gives a terminal back from any state a Screen left it
// in: cursor shown, every report off, the normal screen again (which
// also puts the cursor back). It is safe to write more than once.
const Leave = showCursor + mouseOff + pasteOff + focusOff + leaveAltScreen

// Screen is the alternate screen of one terminal. Its methods are called
// from one goroutine, the program's event loop.
type Screen struct {
	out   io.Writer
	modes Modes
	open  bool

	width, height int
	// last is the frame on the terminal, line by line; nil after a
	// resize, when the next frame is drawn whole.
	last []string
	buf  strings.Builder
}

// New returns a Screen writing to out.
func New(out io.Writer, modes Modes) *Screen {
	return &Screen{out: out, modes: modes}
}

// Open takes the terminal: the alternate screen, cleared, the cursor
// hidden, bracketed paste and the reports asked for on.
func (s *Screen) Open() {
	seq := enterAltScreen + hideCursor + pasteOn
	if s.modes.Mouse {
		seq += mouseOn
	}
	if s.modes.Focus {
		seq += focusOn
	}
	s.write(seq)
	s.open = true
}

// Reopen takes the terminal again after it was given back or written
// over by another program (a shell while baton was stopped): Open, and
// the next frame drawn whole.
func (s *Screen) Reopen() {
	s.Open()
	s.last = nil
}

// Close gives the terminal back (see Leave). A closed Screen draws
// nothing more.
func (s *Screen) Close() {
	if !s.open {
		return
	}
	s.open = false
	s.write(Leave)
}

// Resize says the terminal's size changed: the next frame is cut to it
// and drawn whole on a cleared screen.
func (s *Screen) Resize(width, height int) {
	if width == s.width && height == s.height {
		return
	}
	s.width, s.height = width, height
	s.last = nil
}

// Title sets the terminal window's title; it is cleaned of control
// characters, which would end the sequence early.
func (s *Screen) Title(title string) {
	if !s.open {
		return
	}
	s.write(ansi.SetWindowTitle(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return -1
		}
		return r
	}, title)))
}

// Draw puts frame on the terminal, writing only the lines that differ
// from the last frame's; an unchanged frame costs a comparison. Lines
// that moved up together (a conversation that grew by a line) are
// scrolled by the terminal, not written again. Lines wider than the
// terminal are cut, and a frame taller than it shows its bottom lines.
func (s *Screen) Draw(frame string) { s.DrawLines(strings.Split(frame, "\n")) }

// DrawLines is Draw of a frame given line by line; the lines are not
// kept, so the caller may reuse them.
func (s *Screen) DrawLines(lines []string) {
	if !s.open {
		return
	}
	if s.height > 0 && len(lines) > s.height {
		lines = lines[len(lines)-s.height:]
	}
	if s.last != nil && slices.Equal(s.last, lines) {
		return
	}
	b := &s.buf
	b.Reset()
	if s.last == nil {
		b.WriteString(ansi.EraseEntireScreen)
	} else if top, rows, by := moved(s.last, lines); by > 0 && s.height > 0 {
		s.scroll(top, rows, by)
	}
	b.WriteString(ansi.CursorHomePosition)
	for i, line := range lines {
		if i > 0 {
			if i-1 < len(s.last) && s.last[i-1] == lines[i-1] {
				b.WriteByte('\n') // the line above was kept: just move down
			} else {
				b.WriteString("\r\n")
			}
		}
		if i < len(s.last) && s.last[i] == line {
			continue
		}
		if i < len(s.last) && s.rewrite(s.last[i], line) {
			continue
		}
		b.WriteString(s.fit(line))
	}
	if len(s.last) > len(lines) {
		b.WriteString(ansi.EraseScreenBelow)
	}
	b.WriteByte('\r')
	s.write(b.String())
	s.last = append(s.last[:0], lines...)
}

// minMoved is the fewest lines worth scrolling rather than writing.
const minMoved = 2

// moved finds the longest run of the last frame's lines that the new
// frame shows higher up: from row top on, rows-by lines that were by rows
// lower. It looks below the first line that changed, where a growing
// conversation moves; by is 0 when no run of minMoved lines moved.
func moved(last, lines []string) (top, rows, by int) {
	n := min(len(last), len(lines))
	for top < n && last[top] == lines[top] {
		top++
	}
	run := 0
	for k := 1; top+k < n; k++ {
		if last[top+k] != lines[top] {
			continue
		}
		r := 1
		for top+k+r < n && last[top+k+r] == lines[top+r] {
			r++
		}
		if r > run {
			run, by = r, k
		}
	}
	if run < minMoved {
		return 0, 0, 0
	}
	return top, run + by, by
}

// scroll moves rows lines from row top up by lines within them, in a
// scroll region the terminal restores at once, and notes what the rows
// then hold: the lines moved, and blank rows under them. Attributes are
// reset first, so the rows the terminal blanks take no colour.
func (s *Screen) scroll(top, rows, by int) {
	fmt.Fprintf(&s.buf, "\x1b[m\x1b[%d;%dr\x1b[%dS\x1b[r", top+1, top+rows, by)
	copy(s.last[top:], s.last[top+by:top+rows])
	clear(s.last[top+rows-by : top+rows])
}

// minKept is the fewest bytes of a line worth keeping on the terminal
// rather than writing them again.
const minKept = 16

// rewrite writes of line only what differs from was, the line on the
// terminal in the cursor's row: from the first difference on, after
// moving the cursor there and switching on the styles the line has open
// at that point. A streaming line grows by a few words a frame, and a
// header changes a count near its end. It reports false, having written
// nothing, when the line must be written whole: it is too wide, or
// where it differs follows something the cursor cannot be placed after
// by counting (a wide character, an escape other than a colour).
func (s *Screen) rewrite(was, line string) bool {
	same := 0
	for same < len(was) && same < len(line) && was[same] == line[same] {
		same++
	}
	if same < minKept || s.width <= 0 {
		return false
	}
	w := termtext.Width(line)
	if w > s.width {
		return false
	}
	cut, col, open, ok := resumeAt(line, same)
	if !ok || cut < minKept {
		return false
	}
	b := &s.buf
	b.WriteString("\x1b[")
	b.WriteString(strconv.Itoa(col + 1))
	b.WriteByte('G') // to the column
	b.WriteString(open)
	b.WriteString(line[cut:])
	if w < s.width {
		b.WriteString(ansi.EraseLineRight)
	}
	return true
}

// resumeAt finds where writing can resume in line, at the start of the
// word that holds byte limit, the first that differs: the changed word is
// written whole, so what reads the terminal's output (a log, a test
// looking for what was typed) finds it as the screen shows it. It
// returns that point, its column, and the colour sequences open there
// (those since the last reset). ok is false when the text before it
// holds anything but printable ASCII, narrow symbols and colour
// sequences.
func resumeAt(line string, limit int) (cut, col int, open string, ok bool) {
	var seqs, openAtCut []string
	at, atCol := 0, 0 // where the text was read to, and its column
	for at < limit {
		next, width, seq := at, 0, ""
		switch c := line[at]; {
		case c >= 0x20 && c < 0x7f:
			next, width = at+1, 1
		case c == 0x1b && at+1 < len(line) && line[at+1] == '[':
			j := at + 2
			for j < len(line) && line[j] >= 0x20 && line[j] <= 0x3f {
				j++
			}
			if j >= len(line) || line[j] != 'm' {
				return 0, 0, "", false
			}
			next, seq = j+1, line[at:j+1]
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(line[at:])
			if !termtext.Narrow(r) {
				return 0, 0, "", false
			}
			next, width = at+size, 1
		default:
			return 0, 0, "", false
		}
		switch seq {
		case "":
		case "\x1b[m", "\x1b[0m":
			seqs = seqs[:0]
		default:
			seqs = append(seqs, seq)
		}
		at, atCol = next, atCol+width
		if line[at-1] == ' ' && at <= limit { // a word starts here
			cut, col, openAtCut = at, atCol, append(openAtCut[:0], seqs...)
		}
	}
	return cut, col, strings.Join(openAtCut, ""), true
}

// fit cuts line to the terminal's width and, when it is shorter, erases
// what an earlier frame left to its right.
func (s *Screen) fit(line string) string {
	if s.width <= 0 {
		return line + ansi.EraseLineRight
	}
	w := termtext.Width(line)
	if w > s.width {
		line = ansi.Truncate(line, s.width, "")
		w = ansi.StringWidth(line)
	}
	if w < s.width {
		line += ansi.EraseLineRight
	}
	return line
}

// write sends seq to the terminal; a terminal that cannot be written to
// has nobody to tell.
func (s *Screen) write(seq string) {
	_, _ = io.WriteString(s.out, seq)
}
