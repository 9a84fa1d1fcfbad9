package ui

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
// to maxInputLines: past that the box scrolls inside.
func (in *input) rows() int {
	if in.ta.LineCount() >= maxInputLines {
		return maxInputLines
	}
	n := 0
	for _, line := range strings.Split(in.ta.Value(), "\n") {
		in.measure.SetValue(line)
		n += max(in.measure.LineInfo().Height, 1)
		if n >= maxInputLines {
			return maxInputLines
		}
	}
	return max(n, 1)
}

// fitHeight grows the box with its wrapped rows, up to maxInputLines.
// While everything fits, the view is put back at the top: the textarea
// scrolled while it was shorter, and would otherwise keep hiding the
// first rows after it grew.
func (in *input) fitHeight() {
	rows := in.rows()
	in.ta.SetHeight(rows)
	if rows >= maxInputLines || in.ta.Value() == "" {
		return
	}
	row, info := in.ta.Line(), in.ta.LineInfo()
	col := info.StartColumn + info.ColumnOffset
	in.ta.SetValue(in.ta.Value()) // Reset scrolls the view to the top
	for in.ta.Line() > row {
		in.ta.CursorUp()
	}
	in.ta.SetCursor(col)
}
