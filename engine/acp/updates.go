package acp

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// maxShownOutput bounds the tool output a tool call shows the editor;
// the model still gets all of it.
const maxShownOutput = 8000

// translator turns a session's events into ACP session updates. It keeps
// what that needs: the tool calls the editor was shown, by the agent and
// call each stands for, and the children, each shown as one tool call
// (its parent's task call, when the main agent made it).
type translator struct {
	workspace string
	// contextWindow is the main model's context window (0: unknown).
	contextWindow func() int64

	seq      int
	calls    map[tools.CallRef]*shownCall
	children map[event.AgentID]*childCall
	// standalone are calls shown only to ask about them (an MCP server
	// of an untrusted project), by approval id.
	standalone map[string]string
}

// shownCall is a tool call the editor knows.
type shownCall struct {
	id, title string
	name      string
	// terminal is the editor's terminal showing the call's command.
	terminal string
	// child says the call is a task call a child took over: the child's
	// updates say how it went.
	child bool
}

func newTranslator(workspace string, contextWindow func() int64) *translator {
	return &translator{workspace: workspace, contextWindow: contextWindow,
		calls: map[tools.CallRef]*shownCall{}, children: map[event.AgentID]*childCall{}, standalone: map[string]string{}}
}

// newID names a new tool call for the editor: the model's call ids repeat
// across agents and turns, ACP's must not within a session.
func (t *translator) newID(callID string) string {
	t.seq++
	if callID == "" {
		return fmt.Sprintf("baton-%d", t.seq)
	}
	return fmt.Sprintf("baton-%d-%s", t.seq, callID)
}

// live returns the updates a live event makes.
func (t *translator) live(ev event.Event) []any {
	switch e := ev.(type) {
	case event.TextDelta:
		if e.Agent == event.MainAgent && e.Text != "" {
			return []any{chunk{SessionUpdate: "agent_message_chunk", Content: text(e.Text)}}
		}
	case event.ReasoningDelta:
		if e.Agent == event.MainAgent && e.Text != "" {
			return []any{chunk{SessionUpdate: "agent_thought_chunk", Content: text(e.Text)}}
		}
	case event.UsageReported:
		return t.usage(e)
	case event.Notice:
		return notice(e.Meta, "info", e.Text)
	case event.Retrying:
		return notice(e.Meta, "warning", e.Line(e.Time))
	case event.CompactionStarted:
		return notice(e.Meta, "info", "compacting the conversation")
	case event.Compacted:
		if e.Error != "" {
			return notice(e.Meta, "warning", "compaction failed: "+e.Error)
		}
		return notice(e.Meta, "info", fmt.Sprintf("compacted %s into a summary", event.Plural(e.Replaced, "message")))
	case event.TurnStarted:
		if e.Wake {
			return notice(e.Meta, "info", e.Prompt)
		}
	case event.ApprovalResolved:
		return t.resolved(e)
	case event.ModeChanged:
		// The editor set every other change itself, and was answered.
		if e.PlanAccepted {
			return []any{modeUpdate{SessionUpdate: "current_mode_update", CurrentModeID: string(e.Mode)}}
		}
		return nil
	}
	return t.common(ev)
}

// replay returns the updates a recorded event makes when a session is
// loaded: the person's prompts and the answers as whole messages (the
// pieces they streamed in are not kept), never a question to answer.
func (t *translator) replay(ev event.Event) []any {
	switch e := ev.(type) {
	case event.TurnStarted:
		if !e.Wake && e.Prompt != "" {
			return []any{chunk{SessionUpdate: "user_message_chunk", Content: text(e.Prompt)}}
		}
	case event.MessageDone:
		if e.Agent == event.MainAgent && e.Text != "" {
			return []any{chunk{SessionUpdate: "agent_message_chunk", Content: text(e.Text)}}
		}
	case event.ApprovalRequested, event.ApprovalResolved:
	default:
		return t.common(ev)
	}
	return nil
}

// closeOpen ends, as failed, every call the record left open: what ran
// when baton stopped.
func (t *translator) closeOpen() []any {
	var out []any
	for ref, c := range t.calls {
		out = append(out, toolCall{SessionUpdate: "tool_call_update", ToolCallID: c.id, Status: statusFailed,
			Content: []toolContent{textContent("baton stopped before this call finished")}})
		delete(t.calls, ref)
	}
	for id, ch := range t.children {
		out = append(out, toolCall{SessionUpdate: "tool_call_update", ToolCallID: ch.id, Status: statusFailed,
			Content: []toolContent{textContent(childLabel(ch.meta) + " - interrupted")}})
		delete(t.children, id)
	}
	return out
}

// common are the updates live and replayed events share: tool calls,
// children and plans.
func (t *translator) common(ev event.Event) []any {
	switch e := ev.(type) {
	case event.ToolStarted:
		if e.Agent == event.MainAgent {
			return t.toolStarted(e)
		}
		return t.childTool(e.Meta, e.CallID, e.Title, false)
	case event.ToolFinished:
		out := t.toolFinished(e)
		if e.Agent != event.MainAgent {
			out = append(out, t.childTool(e.Meta, e.CallID, "", true)...)
		}
		return out
	case event.TodosUpdated:
		if e.Agent == event.MainAgent {
			return []any{plan(e.Todos)}
		}
	case event.AgentQueued:
		out, ch := t.child(e.Meta)
		return append(out, t.progress(ch, fmt.Sprintf("%s - waiting for a free slot (#%d in line)", childLabel(e.Meta), e.Position)))
	case event.AgentStarted:
		out, ch := t.child(e.Meta)
		ch.started = e.Time
		return append(out, t.progress(ch, progressLine(ch, e.Time)))
	case event.AgentBackgrounded:
		if ch, ok := t.children[e.Agent]; ok {
			return []any{t.progress(ch, progressLine(ch, e.Time)+" (in the background)")}
		}
	case event.AgentFinished:
		return t.childFinished(e)
	}
	return nil
}

// toolStarted shows a call of the main agent.
func (t *translator) toolStarted(e event.ToolStarted) []any {
	c := &shownCall{id: t.newID(e.CallID), title: e.Title, name: e.Name}
	t.calls[tools.CallRef{Agent: e.Agent, ID: e.CallID}] = c
	return []any{toolCall{SessionUpdate: "tool_call", ToolCallID: c.id, Title: e.Title, Name: e.Name, Kind: kindOf(e.Name),
		Status: statusInProgress, Locations: t.locations(e.Name, e.Args), RawInput: rawJSON(e.Args)}}
}

// toolFinished ends a shown call with its outcome: a diff for an edit,
// the terminal it ran in, or its (bounded) output.
func (t *translator) toolFinished(e event.ToolFinished) []any {
	ref := tools.CallRef{Agent: e.Agent, ID: e.CallID}
	c, ok := t.calls[ref]
	if !ok {
		return nil
	}
	delete(t.calls, ref)
	if c.child {
		return nil
	}
	up := toolCall{SessionUpdate: "tool_call_update", ToolCallID: c.id, Status: statusCompleted}
	if e.IsError {
		up.Status = statusFailed
	}
	switch {
	case e.Denied:
		why := "denied"
		if e.DenyReason != "" {
			why += ": " + e.DenyReason
		}
		up.Content = []toolContent{textContent(why)}
	case c.terminal != "":
		up.Content = []toolContent{{Type: "terminal", TerminalID: c.terminal}}
	case e.Diff != "":
		up.Content = diffContent(t.workspace, e.Diff)
	case e.Output != "":
		up.Content = []toolContent{textContent(clipShown(e.Output))}
	}
	return []any{up}
}

// usage reports the main agent's context fill and cost after a request,
// when the model's context window is known.
func (t *translator) usage(e event.UsageReported) []any {
	if e.Agent != event.MainAgent || t.contextWindow == nil {
		return nil
	}
	size := t.contextWindow()
	if size <= 0 {
		return nil
	}
	u := usageUpdate{SessionUpdate: "usage_update", Used: int64(e.Request.PromptTokens + e.Request.CompletionTokens), Size: size}
	if e.Total.CostKnown {
		u.Cost = &cost{Amount: e.Total.Cost, Currency: "USD"}
	}
	return []any{u}
}

// resolved ends a call shown only for its question, once answered.
func (t *translator) resolved(e event.ApprovalResolved) []any {
	id, ok := t.standalone[e.RequestID]
	if !ok {
		return nil
	}
	delete(t.standalone, e.RequestID)
	status := statusCompleted
	if e.Answer.Decision == event.Deny {
		status = statusFailed
	}
	return []any{toolCall{SessionUpdate: "tool_call_update", ToolCallID: id, Status: status}}
}

// attachTerminal shows an editor's terminal under the call ref stands
// for; it returns nothing when the editor does not know the call (a
// child's call that did not ask).
func (t *translator) attachTerminal(ref tools.CallRef, terminal string) []any {
	c, ok := t.calls[ref]
	if !ok {
		return nil
	}
	c.terminal = terminal
	return []any{toolCall{SessionUpdate: "tool_call_update", ToolCallID: c.id, Status: statusInProgress,
		Content: []toolContent{{Type: "terminal", TerminalID: terminal}}}}
}

// notice is a notice update, or none for an empty text.
func notice(m event.Meta, severity, line string) []any {
	line = strings.TrimSpace(line)
	if line == "" {
		return nil
	}
	if m.Agent != "" && m.Agent != event.MainAgent {
		line = "[" + m.AgentType + "] " + line
	}
	return []any{noticeUpdate{SessionUpdate: "notice", Severity: severity, Title: line}}
}

// plan is a plan update from a task list. ACP's entries have no
// cancelled state: a cancelled item is shown done, and says so.
func plan(todos []event.Todo) planUpdate {
	p := planUpdate{SessionUpdate: "plan", Entries: []planEntry{}}
	for _, td := range todos {
		e := planEntry{Content: td.Content, Priority: "medium", Status: string(td.Status)}
		switch td.Priority {
		case "high", "medium", "low":
			e.Priority = td.Priority
		}
		if td.Status == event.TodoCancelled {
			e.Status, e.Content = string(event.TodoCompleted), "(cancelled) "+td.Content
		}
		p.Entries = append(p.Entries, e)
	}
	return p
}

// kindOf is the ACP kind of a tool, which picks the editor's icon.
func kindOf(name string) string {
	switch name {
	case "read_file":
		return "read"
	case "list_files", "find_files", "grep":
		return "search"
	case "write_file", "edit_file":
		return "edit"
	case "run_command":
		return "execute"
	case "web_fetch":
		return "fetch"
	case child.TaskToolName, "task_wait", "todo_write":
		return "think"
	case engine.ExitPlanToolName:
		return "switch_mode"
	}
	return "other"
}

// locations are the files a call works on, absolute, so the editor can
// follow the agent.
func (t *translator) locations(name, args string) []location {
	switch name {
	case "read_file", "write_file", "edit_file", "list_files", "grep":
	default:
		return nil
	}
	var a struct {
		Path   string `json:"path"`
		Offset int    `json:"offset"`
	}
	if json.Unmarshal([]byte(args), &a) != nil || a.Path == "" {
		return nil
	}
	return []location{{Path: absPath(t.workspace, a.Path), Line: max(a.Offset, 0)}}
}

// rawJSON passes a call's arguments on when they are JSON.
func rawJSON(s string) json.RawMessage {
	if !json.Valid([]byte(s)) {
		return nil
	}
	return json.RawMessage(s)
}

// clipShown bounds text shown in a tool call.
func clipShown(s string) string {
	if len(s) <= maxShownOutput {
		return s
	}
	cut := strings.ToValidUTF8(s[:maxShownOutput], "")
	return cut + fmt.Sprintf("\n… [%d more bytes]", len(s)-len(cut))
}
