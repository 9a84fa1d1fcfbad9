package tools

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// Limits bound what one tool call may cost: every result goes into the
// model's context, so an unbounded listing or log would crowd out the
// conversation. Zero fields take the defaults of DefaultLimits.
type Limits struct {
	// OutputChars caps the characters (runes) of one tool result.
	OutputChars int
	// CommandTimeout is run_command's timeout when the call names none.
	CommandTimeout time.Duration
	// ReadMaxBytes is the largest file read_file returns whole; bigger
	// files must be read by line range.
	ReadMaxBytes int64
}

// DefaultLimits are the limits used for every zero field.
func DefaultLimits() Limits {
	return Limits{
		OutputChars:    50_000,
		CommandTimeout: 120 * time.Second,
		ReadMaxBytes:   256 << 10,
	}
}

// withDefaults fills the zero (or negative) fields from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.OutputChars <= 0 {
		l.OutputChars = d.OutputChars
	}
	if l.CommandTimeout <= 0 {
		l.CommandTimeout = d.CommandTimeout
	}
	if l.ReadMaxBytes <= 0 {
		l.ReadMaxBytes = d.ReadMaxBytes
	}
	return l
}

// truncate keeps the first max characters (runes, never a partial one) of s
// and says how many characters were left out, so the model knows the
// output is incomplete and by how much.
func truncate(s string, max int) string {
	head, left := cutRunes(s, max)
	if left == 0 {
		return s
	}
	return head + "\n… [truncated: " + plural(left, "more character", "more characters") + "]"
}

// cutRunes splits s after max runes and counts the runes that did not fit.
func cutRunes(s string, max int) (head string, left int) {
	if len(s) <= max {
		return s, 0
	}
	cut := 0
	for kept := 0; cut < len(s) && kept < max; kept++ {
		_, size := utf8.DecodeRuneInString(s[cut:])
		cut += size
	}
	return s[:cut], utf8.RuneCountInString(s[cut:])
}

// plural writes a count with its noun: "1 line", "12,345 lines".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return groupDigits(n) + " " + many
}

// groupDigits writes a count n ≥ 0 with thousands separators (12,345): counts in
// markers are read by people too.
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
