package input

import (
	"strings"

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
		m.measure.SetValue(line)
		n += max(m.measure.LineInfo().Height, 1)
		if n >= MaxLines {
			return MaxLines
		}
	}
	return max(n, 1)
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
	m.ta.SetHeight(rows)
	if rows >= MaxLines {
		m.ta.View() // hands the viewport the new text to scroll over
		m.ta, _ = m.ta.Update(nil)
		return
	}
	if m.ta.Value() == "" {
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
