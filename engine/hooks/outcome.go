package hooks

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxModelChars bounds what hooks hand the model (stderr, reasons,
// added context), as Claude Code bounds additionalContext.
const maxModelChars = 10000

// The permission decisions a PreToolUse hook can give.
const (
	Allow = "allow"
	Deny  = "deny"
	Ask   = "ask"
)

// Outcome is what the matching hooks of one event said together.
type Outcome struct {
	// Decision is PreToolUse's verdict: Deny beats Ask beats Allow; ""
	// when no hook gave one.
	Decision string
	// Block is set when a hook exited 2 or said decision "block" (or a
	// PreToolUse deny); Reason is the text for the model, or for the
	// person where the event has no model to tell (UserPromptSubmit).
	Block  bool
	Reason string
	// Context is additional context for the model: additionalContext,
	// and plain stdout at UserPromptSubmit and SessionStart.
	Context []string
	// Stop is continue: false: the agent stops, StopReason telling the
	// person why.
	Stop       bool
	StopReason string
	// Messages are for the person: systemMessage, and the reason of an
	// allow or ask.
	Messages []string
	// Problems are hooks that hung, crashed or printed garbage, each
	// reported only the first time.
	Problems []string
	// Ran counts the hooks that ran.
	Ran int
}

// output is a hook's JSON on stdout, as Claude Code defines it.
type output struct {
	Continue           *bool  `json:"continue"`
	StopReason         string `json:"stopReason"`
	SuppressOutput     bool   `json:"suppressOutput"`
	Decision           string `json:"decision"`
	Reason             string `json:"reason"`
	SystemMessage      string `json:"systemMessage"`
	HookSpecificOutput *struct {
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
		AdditionalContext        string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// verdict is one hook's answer, read from its exit and output.
type verdict struct {
	decision   string
	block      bool
	reason     string
	context    string
	stop       bool
	stopReason string
	message    string
	// problem says what went wrong ("" when nothing did); suppress hides
	// the hook's stdout from /hooks (suppressOutput).
	problem  string
	suppress bool
}

// read turns what a hook did into its verdict. Exit 0 passes, reading
// JSON from stdout when it holds some; exit 2 blocks with stderr; any
// other end is a problem that blocks nothing.
func read(ev Event, r ran) verdict {
	switch {
	case r.stopped:
		return verdict{}
	case r.err != nil:
		return verdict{problem: r.err.Error() + stderrTail(r.stderr)}
	case r.exit == 2:
		reason := strings.TrimSpace(r.stderr)
		if reason == "" {
			reason = "blocked by a hook (exit 2, nothing on stderr)"
		}
		return verdict{block: true, decision: denyAt(ev), reason: reason}
	case r.exit != 0:
		return verdict{problem: fmt.Sprintf("exited %d%s", r.exit, stderrTail(r.stderr))}
	}
	text := strings.TrimSpace(r.stdout)
	if !strings.HasPrefix(text, "{") {
		if text != "" && (ev == UserPromptSubmit || ev == SessionStart) {
			return verdict{context: text}
		}
		return verdict{}
	}
	var o output
	if err := json.Unmarshal([]byte(text), &o); err != nil {
		return verdict{problem: "printed JSON baton cannot read: " + err.Error()}
	}
	return o.verdict(ev)
}

// verdict reads a hook's JSON at event ev.
func (o output) verdict(ev Event) verdict {
	v := verdict{message: o.SystemMessage, suppress: o.SuppressOutput}
	if o.Continue != nil && !*o.Continue {
		v.stop, v.stopReason = true, o.StopReason
	}
	switch strings.ToLower(o.Decision) {
	case "block":
		v.block, v.reason, v.decision = true, o.Reason, denyAt(ev)
	case "approve":
		v.decision = Allow
	}
	if s := o.HookSpecificOutput; s != nil {
		v.context = s.AdditionalContext
		switch d := strings.ToLower(s.PermissionDecision); {
		case ev != PreToolUse:
		case d == Deny:
			v.decision, v.block, v.reason = Deny, true, s.PermissionDecisionReason
		case d == Allow || d == Ask:
			v.decision = d
			if s.PermissionDecisionReason != "" {
				v.message = strings.TrimSpace(v.message + "\n" + s.PermissionDecisionReason)
			}
		}
	}
	if v.block && v.reason == "" {
		v.reason = "blocked by a hook"
	}
	return v
}

// denyAt is the decision a block gives: a denied call at PreToolUse.
func denyAt(ev Event) string {
	if ev == PreToolUse {
		return Deny
	}
	return ""
}

// add folds one verdict into the outcome.
func (o *Outcome) add(v verdict) {
	o.Ran++
	if rank(v.decision) > rank(o.Decision) {
		o.Decision = v.decision
	}
	if v.block {
		o.Block = true
		o.Reason = joinBounded(o.Reason, v.reason)
	}
	if strings.TrimSpace(v.context) != "" {
		o.Context = append(o.Context, clip(strings.TrimSpace(v.context), maxModelChars))
	}
	if v.stop {
		o.Stop = true
		o.StopReason = joinBounded(o.StopReason, v.stopReason)
	}
	if strings.TrimSpace(v.message) != "" {
		o.Messages = append(o.Messages, clip(strings.TrimSpace(v.message), maxModelChars))
	}
}

// rank orders decisions: deny beats ask beats allow beats none.
func rank(d string) int {
	switch d {
	case Deny:
		return 3
	case Ask:
		return 2
	case Allow:
		return 1
	}
	return 0
}

// joinBounded adds b to a on a new line, within maxModelChars.
func joinBounded(a, b string) string {
	b = strings.TrimSpace(b)
	if a == "" {
		return clip(b, maxModelChars)
	}
	if b == "" {
		return a
	}
	return clip(a+"\n"+b, maxModelChars)
}

// stderrTail is the last line of stderr for a problem report.
func stderrTail(stderr string) string {
	stderr = strings.TrimSpace(stderr)
	if stderr == "" {
		return ""
	}
	lines := strings.Split(stderr, "\n")
	return ": " + clip(lines[len(lines)-1], 200)
}

// clip bounds s to n characters, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
