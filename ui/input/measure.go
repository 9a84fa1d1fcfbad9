package input

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/textarea"
)

// newMeasure makes the textarea that measures how many rows a line wraps
// to: the prompt box's own wrapping is not exported, and a second
// textarea of the same width wraps exactly alike.
func newMeasure() textarea.Model {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.CharLimit = 0
	ta.SetPromptFunc(2, func(int) string { return "  " })
	return ta
}

// rows is how many screen rows the text takes once wrapped, counted up
// to MaxLines: past that the box scrolls inside.
func (m *Model) rows() int {
	if m.ta.LineCount() >= MaxLines {
		return MaxLines
	}
	n := 0
	for _, line := range strings.Split(m.ta.Value(), "\n") {
		n += m.lineRows(line)
		if n >= MaxLines {
			return MaxLines
		}
	}
	return max(n, 1)
}

// lineRows is how many rows one line wraps to. A line too short to wrap
// takes one without asking the measuring textarea: its SetValue makes a
// room for 10,000 lines (240 KB) each time, and rows runs on every key.
// No character is wider than two cells, and the textarea wraps a line
// only once it, a space run or its last character (two cells at most)
// would pass the width, so a line of n characters with 2n+2 cells to
// spare cannot wrap.
func (m *Model) lineRows(line string) int {
	if 2*utf8.RuneCountInString(line)+2 <= m.measure.Width() {
		return 1
	}
	m.measure.SetValue(line)
	return max(m.measure.LineInfo().Height, 1)
}

// fitHeight grows the box with its wrapped rows, up to MaxLines. While
// everything fits, the view is put back at the top: the textarea
// scrolled while it was shorter, and would otherwise keep hiding the
// first rows after it grew. Past MaxLines the view follows the cursor:
// the textarea scrolls against the text it last drew, so after a paste
// of many lines it would still show the first rows, not the cursor's.
func (m *Model) fitHeight() {
	m.box = "" // every change of text or size comes through here
	rows := m.rows()
	resized := rows != m.ta.Height()
	m.ta.SetHeight(rows)
	if rows >= MaxLines {
		m.ta.View() // hands the viewport the new text to scroll over
		m.ta, _ = m.ta.Update(nil)
		return
	}
	// The textarea scrolls only while its text is taller than the box, so
	// a box whose height did not change shows its text from the top.
	if !resized || m.ta.Value() == "" {
		return
	}
	row, info := m.ta.Line(), m.ta.LineInfo()
	col := info.StartColumn + info.ColumnOffset
	m.ta.SetValue(m.ta.Value()) // Reset scrolls the view to the top
	for m.ta.Line() > row {
		m.ta.CursorUp()
	}
	m.ta.SetCursor(col)
}
