package main

import (
	"strings"
	"unicode"
)

// answerStream writes the main agent's messages to stdout as their text
// streams in. Each message ends with one newline and messages are
// separated by a blank line, so a model that says "Let me look." before
// calling tools prints that line, then its answer: stdout holds every
// message of the main agent, in order, the final answer last (the json
// formats hold the final answer alone). Newlines at a message's start are
// dropped and those at its end held back until more text follows, which
// gives the same bytes as printing each finished message trimmed.
type answerStream struct {
	inMessage bool // a message's text has begun and not ended
	printed   bool // some message was printed
	held      int  // trailing newlines not yet written
	// rest is the message from its first control character on, written
	// when the message ends: stdout's cleaner must see an escape sequence
	// whole, and deltas may split one.
	rest    strings.Builder
	holding bool
}

// text writes one delta of the current message.
func (a *answerStream) text(out *lineWriter, s string) {
	if a.holding {
		a.rest.WriteString(s)
		return
	}
	if i := strings.IndexFunc(s, isRawControl); i >= 0 {
		a.holding = true
		a.rest.WriteString(s[i:])
		s = s[:i]
	}
	a.write(out, s)
}

// write puts s on stdout with the message's newline rules.
func (a *answerStream) write(out *lineWriter, s string) {
	if !a.inMessage {
		s = strings.TrimLeft(s, "\n")
		if s == "" {
			return
		}
		if a.printed {
			out.printf("\n")
		}
		a.inMessage, a.printed = true, true
	}
	body := strings.TrimRight(s, "\n")
	if body == "" {
		a.held += len(s)
		return
	}
	out.printf("%s%s", strings.Repeat("\n", a.held), body)
	a.held = len(s) - len(body)
}

// end writes what the message held back and closes its last line.
func (a *answerStream) end(out *lineWriter) {
	if a.holding {
		a.holding = false
		a.write(out, a.rest.String())
		a.rest.Reset()
	}
	if a.inMessage {
		out.printf("\n")
	}
	a.inMessage, a.held = false, 0
}

// finish ends the turn's output. A turn whose text never streamed (none
// of the engine's paths does that today) still prints its final text.
func (a *answerStream) finish(out *lineWriter, final string) {
	if !a.printed && !a.holding {
		a.text(out, final)
	}
	a.end(out)
}

// isRawControl reports a control character other than the newline and the
// tab, which plain text keeps: what may begin an escape sequence.
func isRawControl(r rune) bool {
	return r != '\n' && r != '\t' && unicode.IsControl(r)
}
