package acp

import (
	"fmt"
	"time"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Each child is shown to the editor as one tool call: its parent's task
// call when the main agent made that call, else a call of its own. Its
// content is the child's progress line while it runs, then its summary
// and result; the translator keeps, per child, what that line needs.

// childCall is a child as the editor sees it: one tool call whose
// content is the child's progress line, then its summary.
type childCall struct {
	id      string
	meta    event.Meta
	started time.Time
	tools   int
	latest  string
	// titles are the child's calls in flight, for its progress line.
	titles map[string]string
}

// child returns the tool call standing for a child, showing it first if
// the editor does not know it yet: as its parent's task call when the
// main agent made that call, else as a call of its own.
func (t *translator) child(m event.Meta) ([]any, *childCall) {
	if ch, ok := t.children[m.Agent]; ok {
		ch.meta = m
		return nil, ch
	}
	ch := &childCall{meta: m, started: m.Time, titles: map[string]string{}}
	t.children[m.Agent] = ch
	title := childLabel(m)
	if task, ok := t.calls[tools.CallRef{Agent: m.Parent, ID: m.TaskCall}]; ok {
		ch.id, task.child = task.id, true
		return []any{toolCall{SessionUpdate: "tool_call_update", ToolCallID: ch.id, Title: title, Kind: "think"}}, ch
	}
	ch.id = t.newID(string(m.Agent))
	return []any{toolCall{SessionUpdate: "tool_call", ToolCallID: ch.id, Title: title, Name: child.TaskToolName, Kind: "think", Status: statusInProgress}}, ch
}

// childTool notes one of a child's calls starting or ending, for its
// progress line.
func (t *translator) childTool(m event.Meta, callID, title string, finished bool) []any {
	ch, ok := t.children[m.Agent]
	if !ok {
		return nil
	}
	if !finished {
		ch.titles[callID] = title
		ch.latest = title
	} else {
		ch.tools++
		ch.latest = ch.titles[callID]
		delete(ch.titles, callID)
	}
	return []any{t.progress(ch, progressLine(ch, m.Time))}
}

// progress is an update showing a child's progress line.
func (t *translator) progress(ch *childCall, line string) toolCall {
	return toolCall{SessionUpdate: "tool_call_update", ToolCallID: ch.id, Status: statusInProgress, Content: []toolContent{textContent(line)}}
}

// childFinished shows a child's summary and result, and ends what it left
// open.
func (t *translator) childFinished(e event.AgentFinished) []any {
	out, ch := t.child(e.Meta)
	delete(t.children, e.Agent)
	summary := childSummary(e)
	if e.Result != "" {
		summary += "\n\n" + clipShown(e.Result)
	}
	status := statusCompleted
	if e.Status != event.StatusCompleted {
		status = statusFailed
	}
	out = append(out, toolCall{SessionUpdate: "tool_call_update", ToolCallID: ch.id, Status: status, Content: []toolContent{textContent(summary)}})
	for ref, c := range t.calls {
		if ref.Agent == e.Agent {
			out = append(out, toolCall{SessionUpdate: "tool_call_update", ToolCallID: c.id, Status: statusFailed})
			delete(t.calls, ref)
		}
	}
	return out
}

// childLabel is "[Explore] find auth code".
func childLabel(m event.Meta) string {
	return fmt.Sprintf("[%s] %s", m.AgentType, m.Description)
}

// progressLine is a child's live line: "[Explore] find auth code ... 5
// tools, 3.2s · read_file engine/loop.go".
func progressLine(ch *childCall, now time.Time) string {
	line := fmt.Sprintf("%s ... %s, %.1fs", childLabel(ch.meta), event.Plural(ch.tools, "tool"), max(now.Sub(ch.started), 0).Seconds())
	if ch.latest != "" {
		line += " · " + ch.latest
	}
	return line
}

// childSummary is "[Explore] find auth code - done (8 tools, 5.1s)",
// with the reason when the child did not complete.
func childSummary(e event.AgentFinished) string {
	line := childLabel(e.Meta) + " - " + e.Status.Word()
	if e.Status != event.StatusDenied {
		line += fmt.Sprintf(" (%s, %.1fs)", event.Plural(e.Stats.ToolCalls, "tool"), e.Stats.Duration.Seconds())
	}
	if e.Reason != "" && e.Status != event.StatusCompleted {
		line += ": " + e.Reason
	}
	return line
}
