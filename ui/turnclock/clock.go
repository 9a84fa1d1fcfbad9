// Package turnclock measures the main agent's running turn for the working
// line: how long it has run, how long the first token took, and how many
// tokens came back so far, so a hung request never looks like a slow model.
//
// It holds no clock of its own: every call takes the time, so the root's
// one injectable clock drives it and tests are deterministic.
package turnclock

import (
	"fmt"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// charsPerToken turns streamed text into a token estimate until the
// request's usage replaces it with the provider's count.
const charsPerToken = 4

// Clock is one turn's measurements. The zero value is an idle clock.
type Clock struct {
	running bool
	start   time.Time
	first   time.Time // zero until the first token of the turn
	// counted are the completion tokens of the turn's requests whose usage
	// arrived; streamed the characters of the request still streaming.
	counted  int
	streamed int
}

// Start begins a turn at now, forgetting the last one.
func (c *Clock) Start(now time.Time) {
	*c = Clock{running: true, start: now}
}

// Stop ends the turn; the line is empty until the next Start.
func (c *Clock) Stop() { c.running = false }

// Running reports whether a turn is being measured.
func (c *Clock) Running() bool { return c.running }

// Received counts a piece of streamed text or reasoning at now.
func (c *Clock) Received(now time.Time, text string) {
	if !c.running || text == "" {
		return
	}
	if c.first.IsZero() {
		c.first = now
	}
	c.streamed += len([]rune(text))
}

// Counted replaces the estimate of the request that just finished with
// the provider's count of its completion tokens.
func (c *Clock) Counted(completionTokens int) {
	if !c.running {
		return
	}
	c.counted += completionTokens
	c.streamed = 0
}

// Tokens is the turn's tokens so far: counted ones plus the estimate of
// the request still streaming.
func (c *Clock) Tokens() int {
	return c.counted + (c.streamed+charsPerToken-1)/charsPerToken
}

// Parts are the working line's measurements at now, most important
// first: elapsed time, tokens received (or that none came yet), and the
// time to the first token once known. Empty when no turn runs.
func (c *Clock) Parts(now time.Time) []string {
	if !c.running {
		return nil
	}
	parts := []string{Duration(now.Sub(c.start))}
	if c.first.IsZero() {
		return append(parts, "no tokens yet")
	}
	parts = append(parts, "↓ "+Tokens(c.Tokens()))
	return append(parts, "first token "+Duration(c.first.Sub(c.start)))
}

// Line joins head, the parts that fit and tail with " · " within width,
// dropping parts from the least important until it fits; head and tail
// are always kept (the caller truncates what still overflows).
func Line(head string, parts []string, tail string, width int) string {
	for n := len(parts); ; n-- {
		line := strings.Join(append(append([]string{head}, parts[:n]...), tail), " · ")
		if n == 0 || termtext.Width(line) <= width {
			return line
		}
	}
}

// Duration writes whole seconds under a minute ("12s"), and minutes with
// seconds above ("2m05s"); the working line ticks, tenths would flicker.
func Duration(d time.Duration) string {
	d = max(d, 0).Truncate(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d/time.Second))
	}
	if d < time.Hour {
		return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
	}
	return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
}

// Tokens writes a count the short way the panes use: "800 tok",
// "1.2k tok", "3.4M tok".
func Tokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d tok", n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk tok", float64(n)/1000)
	default:
		return fmt.Sprintf("%.1fM tok", float64(n)/1_000_000)
	}
}
