package acp

import (
	"context"
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// The permission options baton offers; the ids are what the client
// answers with.
const (
	optionAllowOnce   = "allow_once"
	optionAllowAlways = "allow_always"
	optionAllowFolder = "allow_always_folder"
	optionRejectOnce  = "reject_once"
	kindAllowOnce     = "allow_once"
	kindAllowAlways   = "allow_always"
	kindRejectOnce    = "reject_once"
	outcomeSelected   = "selected"
	outcomeCancelled  = "cancelled"
)

// ask puts one of baton's cards to the client as a permission request.
// The call it is about is shown first if the client does not know it (a
// child's call, an MCP server). The request's goroutine ends when the
// client answers, the question is settled otherwise (ApprovalResolved
// cancels it) or the session closes.
func (ss *session) ask(e event.ApprovalRequested) {
	req := e.Request
	announce, call := ss.tr.permissionCall(e)
	ss.send(announce...)
	params := permissionRequest{SessionID: ss.id, ToolCall: call, Options: permissionOptions(req)}
	ctx, cancel := context.WithCancel(ss.ctx)
	ss.mu.Lock()
	ss.asks[req.ID] = cancel
	ss.mu.Unlock()
	ss.asking.Add(1)
	go func() {
		defer ss.asking.Done()
		defer cancel()
		var resp permissionResponse
		err := ss.srv.c.Call(ctx, "session/request_permission", params, &resp)
		req.Answer(answerOf(req, resp, err))
		ss.mu.Lock()
		delete(ss.asks, req.ID)
		ss.mu.Unlock()
	}()
}

// permissionOptions are the answers a card offers: once, always (with
// the rule "always" adds, as the TUI's a and f keys do), or no.
func permissionOptions(req *event.ApprovalRequest) []permissionOption {
	if req.Kind == event.ApproveDelegation {
		kind := "this agent type"
		if d := req.Delegation; d != nil && d.AgentType != "" {
			kind = d.AgentType
		}
		return []permissionOption{
			{OptionID: optionAllowOnce, Name: "Approve", Kind: kindAllowOnce},
			{OptionID: optionAllowAlways, Name: "Always allow " + kind + " sub-agents", Kind: kindAllowAlways},
			{OptionID: optionRejectOnce, Name: "Deny", Kind: kindRejectOnce},
		}
	}
	if req.Kind == event.ApprovePlan {
		return []permissionOption{
			{OptionID: optionAllowAlways, Name: "Yes, and auto-accept edits", Kind: kindAllowAlways},
			{OptionID: optionAllowOnce, Name: "Yes, and ask before edits", Kind: kindAllowOnce},
			{OptionID: optionRejectOnce, Name: "No, keep planning", Kind: kindRejectOnce},
		}
	}
	opts := []permissionOption{{OptionID: optionAllowOnce, Name: "Allow once", Kind: kindAllowOnce}}
	if len(req.Always) > 0 {
		opts = append(opts, permissionOption{OptionID: optionAllowAlways, Name: "Always allow " + strings.Join(req.Always, ", "), Kind: kindAllowAlways})
	}
	if len(req.AlwaysFolder) > 0 {
		opts = append(opts, permissionOption{OptionID: optionAllowFolder, Name: "Always allow " + strings.Join(req.AlwaysFolder, ", "), Kind: kindAllowAlways})
	}
	return append(opts, permissionOption{OptionID: optionRejectOnce, Name: "Deny", Kind: kindRejectOnce})
}

// answerOf turns the client's answer into baton's. "Always" on a tool
// card adds the rules the card offered, as the TUI does; anything but a
// choice baton offered is a denial.
func answerOf(req *event.ApprovalRequest, resp permissionResponse, err error) event.Answer {
	if err != nil {
		return event.Answer{Decision: event.Deny, Reason: "no answer from the editor: " + err.Error()}
	}
	if resp.Outcome.Outcome == outcomeCancelled {
		return event.Answer{Decision: event.Deny, Reason: "the prompt was cancelled"}
	}
	if resp.Outcome.Outcome != outcomeSelected {
		return event.Answer{Decision: event.Deny, Reason: fmt.Sprintf("the editor answered %q", resp.Outcome.Outcome)}
	}
	delegation := req.Kind == event.ApproveDelegation
	switch resp.Outcome.OptionID {
	case optionAllowOnce:
		return event.Answer{Decision: event.Allow}
	case optionAllowAlways:
		if delegation || req.Kind == event.ApprovePlan {
			return event.Answer{Decision: event.AllowAlways}
		}
		if len(req.Always) > 0 {
			return event.Answer{Decision: event.AllowAlways, Rules: req.Always}
		}
	case optionAllowFolder:
		if !delegation && len(req.AlwaysFolder) > 0 {
			return event.Answer{Decision: event.AllowAlways, Rules: req.AlwaysFolder}
		}
	case optionRejectOnce:
		return event.Answer{Decision: event.Deny}
	}
	return event.Answer{Decision: event.Deny, Reason: fmt.Sprintf("the editor chose %q, which was not offered", resp.Outcome.OptionID)}
}

// permissionCall is the tool call a card is about, as the request shows
// it, and the updates that first show the call when the client does not
// know it: a child's call is shown as a call of its own labelled with the
// child, a question about no call (an MCP server) as a call standing for
// the question.
func (t *translator) permissionCall(e event.ApprovalRequested) ([]any, toolCall) {
	req := e.Request
	if req.Kind == event.ApproveDelegation {
		announce, ch := t.child(e.Meta)
		return announce, toolCall{ToolCallID: ch.id, Title: childLabel(e.Meta), Kind: "think", Status: statusPending,
			Content: []toolContent{textContent(delegationText(req.Delegation))}}
	}
	content := t.previewContent(req)
	ref := tools.CallRef{Agent: e.Agent, ID: req.CallID}
	if c, ok := t.calls[ref]; ok && req.CallID != "" {
		return nil, toolCall{ToolCallID: c.id, Title: c.title, Kind: kindOf(c.name), Status: statusPending, Content: content,
			Locations: t.locations(req.Tool, req.Args), RawInput: rawJSON(req.Args)}
	}
	title := req.Tool
	if req.CallID == "" {
		id := t.newID("")
		t.standalone[req.ID] = id
		return []any{toolCall{SessionUpdate: "tool_call", ToolCallID: id, Title: title, Kind: "other", Status: statusPending}},
			toolCall{ToolCallID: id, Title: title, Status: statusPending, Content: content}
	}
	if ch, ok := t.children[e.Agent]; ok {
		if shown := ch.titles[req.CallID]; shown != "" {
			title = shown
		}
	}
	title = childLabel(e.Meta) + ": " + title
	c := &shownCall{id: t.newID(req.CallID), title: title, name: req.Tool}
	t.calls[ref] = c
	return []any{toolCall{SessionUpdate: "tool_call", ToolCallID: c.id, Title: title, Name: req.Tool, Kind: kindOf(req.Tool),
			Status: statusPending, Locations: t.locations(req.Tool, req.Args), RawInput: rawJSON(req.Args)}},
		toolCall{ToolCallID: c.id, Title: title, Status: statusPending, Content: content, Locations: t.locations(req.Tool, req.Args), RawInput: rawJSON(req.Args)}
}

// previewContent is what a tool card shows: the diff of an edit, else
// the preview's text, and where a worktree child's change lands.
func (t *translator) previewContent(req *event.ApprovalRequest) []toolContent {
	var out []toolContent
	switch {
	case req.Server != nil:
		out = []toolContent{textContent(serverText(req.Server))}
	case (req.Tool == "write_file" || req.Tool == "edit_file") && strings.Contains(req.Preview, "\n@@"):
		out = diffContent(t.workspace, req.Preview)
	case req.Preview != "":
		out = []toolContent{textContent(clipShown(req.Preview))}
	}
	if req.Worktree != "" {
		out = append(out, textContent("in the sub-agent's worktree "+req.Worktree+": the change reaches your files only once reviewed"))
	}
	return out
}

// serverText is an MCP server's card as text: every byte of what would
// run, and where it is declared.
func serverText(s *event.ServerPreview) string {
	return "Start MCP server " + s.Name + "?\n" + s.Command + "\nfrom " + s.Source + ", in a folder you have not trusted"
}

// delegationText is a delegation card as text: the task, and what the
// child would get.
func delegationText(d *event.DelegationPreview) string {
	if d == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", d.Prompt)
	if d.ACPAgent != "" {
		fmt.Fprintf(&b, "acp agent: runs $ %s\n", d.ACPAgent)
	} else {
		fmt.Fprintf(&b, "tools: %s\n", strings.Join(d.Tools, " "))
	}
	model := d.Model
	if d.ModelWhy != "" {
		model += " (" + d.ModelWhy + ")"
	}
	fmt.Fprintf(&b, "model: %s\n", model)
	fmt.Fprintf(&b, "limits: %s · %s", event.Plural(d.MaxSteps, "step"), d.Timeout)
	if d.Isolation != "" {
		fmt.Fprintf(&b, "\nisolation: %s", d.Isolation)
		if d.From != "" {
			fmt.Fprintf(&b, " from %s", d.From)
		}
	}
	if len(d.Inherits) > 0 {
		fmt.Fprintf(&b, "\ninherits: %s", strings.Join(d.Inherits, ", "))
	}
	if d.Background {
		b.WriteString("\nruns in the background")
	}
	return b.String()
}
