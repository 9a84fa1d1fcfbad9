package transcript

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// The kinds of record a transcript holds.
const (
	// KindEvent records carry one engine event marshalled with a "type"
	// field, e.g. {"type":"turn_started","prompt":"..."}.
	KindEvent = "event"
	// KindMessage records carry one chat message appended to the agent's
	// history, so that a resumed model receives the same history.
	KindMessage = "message"
	// KindMeta records carry session information (see Meta).
	KindMeta = "meta"
)

// MainAgent is the agent id whose transcript is main.jsonl; listings read
// a session's turns, tokens and cost from it.
const MainAgent = "main"

// Record is one line of a transcript.
type Record struct {
	Time  time.Time       `json:"time"`
	Kind  string          `json:"kind"`
	Agent string          `json:"agent"`
	Data  json.RawMessage `json:"data"`
}

// Meta is the data of a KindMeta record: what a later reader needs to know
// about the program that wrote the session. The record's Time is when the
// session started.
type Meta struct {
	Workspace string `json:"workspace"`
	Model     string `json:"model"`
	Version   string `json:"version"`
}

// Truncation reports what a tolerant Read dropped; Read returns nil when it
// dropped nothing.
//
// Line and Bytes describe a last line that a crash cut short (no final
// newline and not a whole record); Line is 0 when the end was intact.
// Corrupt lists the numbers of complete lines that did not parse. Such a
// line is skipped rather than ending the read: the records after it were
// written and flushed whole, and keeping them is what "nothing completed is
// lost" asks. It typically is a fragment from an earlier crash that a later
// Writer closed with a newline before appending.
type Truncation struct {
	Line    int
	Bytes   int
	Corrupt []int
}

// String says what was dropped in words fit for a notice to the person.
func (t *Truncation) String() string {
	var parts []string
	if t.Line > 0 {
		parts = append(parts, fmt.Sprintf("dropped a half-written last line (line %d, %d bytes)", t.Line, t.Bytes))
	}
	if len(t.Corrupt) > 0 {
		nums := make([]string, len(t.Corrupt))
		for i, n := range t.Corrupt {
			nums[i] = fmt.Sprint(n)
		}
		parts = append(parts, fmt.Sprintf("skipped %d corrupt line(s): %s", len(t.Corrupt), strings.Join(nums, ", ")))
	}
	return strings.Join(parts, "; ")
}

// validKind reports whether kind is one of the kinds a transcript holds.
func validKind(kind string) bool {
	return kind == KindEvent || kind == KindMessage || kind == KindMeta
}
