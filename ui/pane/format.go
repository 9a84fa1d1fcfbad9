package pane

import (
	"fmt"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// tokens writes a token count the short way: "800 tok", "1.2k tok",
// "3.4M tok".
func tokens(n int) string { return event.Compact(int64(n)) + " tok" }

// elapsed writes a duration with one decimal under a minute ("3.2s") and
// whole seconds above ("2m05s", "1h02m05s").
func elapsed(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	if d < time.Minute {
		// Truncate, not round, so 59.96s does not read "60.0s".
		return fmt.Sprintf("%.1fs", float64(d.Truncate(100*time.Millisecond))/float64(time.Second))
	}
	d = d.Truncate(time.Second)
	h, m, s := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	if h > 0 {
		return fmt.Sprintf("%dh%02dm%02ds", h, m, s)
	}
	return fmt.Sprintf("%dm%02ds", m, s)
}

// cost writes a dollar amount to the tenth of a cent, the precision the
// header uses; a cost too small to show says so instead of "$0.000".
func cost(c float64) string {
	if c > 0 && c < 0.0005 {
		return "<$0.001"
	}
	return fmt.Sprintf("$%.3f", c)
}

// plural writes a count with its noun, the one way every part of baton
// counts.
func plural(n int, noun string) string { return event.Plural(n, noun) }

// oneLine cleans s and folds it onto one line, for titles and
// descriptions drawn inside a header.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// fit cuts a (possibly styled) line to width cells, marking the cut. A
// width of zero or less means the pane has not been sized: nothing is cut.
func fit(line string, width int) string {
	if width <= 0 {
		return line
	}
	return termtext.Fit(line, width)
}
