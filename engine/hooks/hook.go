// Package hooks runs the person's hook commands at points of an agent's
// life, in Claude Code's format and protocol, so hooks written for Claude
// Code work unchanged: settings files hold {"hooks": {"PreToolUse":
// [{"matcher": "Bash", "hooks": [{"type": "command", "command": …}]}]}};
// each matching command gets the event as JSON on stdin (tool names and
// inputs as Claude Code spells them) and answers with its exit code (0
// passes, 2 blocks with stderr for the model) and optionally JSON on
// stdout (decision, permissionDecision, additionalContext, continue …).
//
// A hook is the person's own command: it runs as them, outside the
// sandbox, with a timeout and bounded output. A hook that hangs, crashes
// or prints garbage is reported once and never stops baton. A project's
// hooks run only once the person trusts the folder; cmd decides which
// hooks a session gets.
package hooks

import (
	"regexp"
	"time"

	"github.com/seed-e4e525a6/baton/engine/rules"
)

// Event is a point in a session where hooks run, named as in Claude Code.
type Event string

// The events baton runs hooks at.
const (
	PreToolUse       Event = "PreToolUse"
	PostToolUse      Event = "PostToolUse"
	UserPromptSubmit Event = "UserPromptSubmit"
	Stop             Event = "Stop"
	SubagentStart    Event = "SubagentStart"
	SubagentStop     Event = "SubagentStop"
	SessionStart     Event = "SessionStart"
	SessionEnd       Event = "SessionEnd"
	PreCompact       Event = "PreCompact"
	Notification     Event = "Notification"
)

// Events lists them in the order /hooks shows them.
var Events = []Event{SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Notification,
	SubagentStart, SubagentStop, Stop, PreCompact, SessionEnd}

// Timeouts: Claude Code's default, and the most any hook may ask for.
const (
	DefaultTimeout = 60 * time.Second
	MaxTimeout     = 600 * time.Second
	// sessionEndTimeout is the default at the end of a session, which
	// waits for its hooks: quitting should not take a minute.
	sessionEndTimeout = 10 * time.Second
)

// Hook is one configured command.
type Hook struct {
	Event Event
	// Matcher is as written: a tool name, names joined by "|", a regular
	// expression, or "" / "*" for all. For events about no tool it
	// matches what Claude Code matches there (SessionStart's source,
	// Notification's type, a sub-agent's type).
	Matcher string
	// Command runs through bash (sh when there is none), or, with Args,
	// as a program of its own with those arguments and no shell.
	Command string
	Args    []string
	// If, when set, is a permission rule (baton's form) the tool call
	// must touch for the hook to run (Claude Code's "if").
	If string
	// Timeout bounds the run; 0 takes the default.
	Timeout time.Duration
	// Source is the file the hook came from, Project whether that file
	// travels with the repository.
	Source  string
	Project bool

	// match is the compiled matcher: names to compare exactly, or a
	// regular expression.
	names []string
	re    *regexp.Regexp
	// ifRule is If parsed; nil without one.
	ifRule *rules.Rule
}

// timeout is the hook's bound at an event.
func (h Hook) timeout() time.Duration {
	switch {
	case h.Timeout > 0:
		return min(h.Timeout, MaxTimeout)
	case h.Event == SessionEnd:
		return sessionEndTimeout
	}
	return DefaultTimeout
}

// Target is what the hook runs, for people.
func (h Hook) Target() string {
	t := h.Command
	for _, a := range h.Args {
		t += " " + a
	}
	return t
}
