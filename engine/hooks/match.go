package hooks

import (
	"encoding/json"
	"slices"

	"github.com/seed-e4e525a6/baton/engine/rules"
)

// toolEvents are the events about one tool call, whose matcher is
// compared with the tool's names.
var toolEvents = []Event{PreToolUse, PostToolUse}

// matches reports whether the hook runs for in. A tool event's matcher is
// compared with baton's name for the tool and Claude Code's (Bash,
// Edit|Write, mcp__server__.*); UserPromptSubmit and Stop take no
// matcher; the other events compare what Claude Code compares there.
func (h Hook) matches(in Input) bool {
	if h.Event != in.Event {
		return false
	}
	var subjects []string
	switch in.Event {
	case PreToolUse, PostToolUse:
		subjects = append([]string{in.Tool}, rules.ClaudeNames(in.Tool)...)
	case SessionStart:
		subjects = []string{in.Source}
	case SessionEnd:
		subjects = []string{in.Reason}
	case PreCompact:
		subjects = []string{in.Trigger}
	case Notification:
		subjects = []string{in.NotificationType}
	case SubagentStart, SubagentStop:
		subjects = []string{in.AgentType}
	default:
		return true
	}
	if !h.matchesAny(subjects) {
		return false
	}
	if h.ifRule != nil && slices.Contains(toolEvents, in.Event) {
		return h.ifRule.Touches(rules.CallOf(in.Tool, json.RawMessage(in.ToolInput), in.Cwd))
	}
	return true
}

// matchesAny applies the compiled matcher to each subject.
func (h Hook) matchesAny(subjects []string) bool {
	if h.names == nil && h.re == nil {
		return true
	}
	for _, s := range subjects {
		if h.names != nil && slices.Contains(h.names, s) || h.re != nil && h.re.MatchString(s) {
			return true
		}
	}
	return false
}
