package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// canUseTool is Claude Code's permission question to the program driving
// it (--permission-prompt-tool stdio): the Agent SDK answers it with its
// canUseTool callback.
type canUseTool struct {
	Subtype     string          `json:"subtype"`
	ToolName    string          `json:"tool_name"`
	Input       json.RawMessage `json:"input"`
	ToolUseID   string          `json:"tool_use_id,omitempty"`
	AgentID     event.AgentID   `json:"agent_id,omitempty"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	Suggestions []any           `json:"permission_suggestions"`
}

// permissionResult is the SDK's answer: allow (with the input, possibly
// changed) or deny (with a message, and whether to stop the turn).
type permissionResult struct {
	Behavior     string          `json:"behavior"`
	UpdatedInput json.RawMessage `json:"updatedInput"`
	Message      string          `json:"message"`
	Interrupt    bool            `json:"interrupt"`
}

// watch follows the events a question needs: a task call's arguments,
// which its delegation question shows as the model wrote them, and the
// approvals the engine waits on (only --permission-prompt-tool stdio runs
// in a mode that asks).
func (in *streamInput) watch(ev event.Event) {
	switch e := ev.(type) {
	case event.ToolStarted:
		if e.Name == "task" {
			in.taskCalls[e.CallID] = e.Args
		}
	case event.ApprovalRequested:
		in.ask(e)
	}
}

// asked is one question waiting for its answer.
type asked struct {
	req   *event.ApprovalRequest
	input json.RawMessage
}

// ask sends an approval the engine waits on as a can_use_tool control
// request. Once stdin has ended nobody can answer, so it is refused at
// once rather than left to hang; so is a kind baton does not ask about
// over the protocol (an untrusted project's MCP server).
func (in *streamInput) ask(ev event.ApprovalRequested) {
	req := ev.Request
	q := canUseTool{Subtype: "can_use_tool", ToolUseID: req.CallID, Suggestions: []any{}}
	if ev.Agent != event.MainAgent {
		q.AgentID = ev.Agent
	}
	switch {
	case req.Kind == event.ApproveTool:
		q.ToolName, q.Input, q.Description = req.Tool, toolInput(req.Args), req.Preview
	case req.Kind == event.ApproveDelegation && req.Delegation != nil:
		d := req.Delegation
		q.ToolName, q.Title = "task", "Delegate to "+d.AgentType
		if args, ok := in.taskCalls[req.CallID]; ok {
			q.Input = toolInput(args) // the task call as the model wrote it
		} else {
			q.Input, _ = json.Marshal(map[string]string{"subagent_type": d.AgentType, "description": d.Description, "prompt": d.Prompt})
		}
	default:
		req.Answer(event.Answer{Decision: event.Deny, Reason: "baton does not ask about this over the protocol"})
		return
	}
	if in.eof {
		req.Answer(event.Answer{Decision: event.Deny, Reason: "stdin has ended: nobody can answer"})
		return
	}
	in.asks++
	id := fmt.Sprintf("baton-ask-%d", in.asks)
	in.waiting[id] = asked{req: req, input: q.Input}
	b, _ := json.Marshal(map[string]any{"type": "control_request", "request_id": id, "request": q})
	in.out.printf("%s\n", b)
}

// answered applies the answer to one of baton's questions. A denial
// reaches the model with its message; interrupt stops the turn too. An
// allow whose input differs from the call's is refused: baton runs a call
// as the model wrote it and the person saw it, or not at all.
func (in *streamInput) answered(raw json.RawMessage, s turnSession) {
	var verdict controlVerdict
	var body struct {
		Response json.RawMessage `json:"response"`
	}
	if json.Unmarshal(raw, &verdict) != nil || json.Unmarshal(raw, &body) != nil {
		in.warn("a control_response that is not an object")
		return
	}
	q, ok := in.waiting[verdict.RequestID]
	if !ok {
		return // an answer to no question of baton's
	}
	delete(in.waiting, verdict.RequestID)
	if verdict.Subtype != "success" {
		q.req.Answer(event.Answer{Decision: event.Deny, Reason: "the permission prompt failed: " + verdict.Error})
		return
	}
	var r permissionResult
	if err := json.Unmarshal(body.Response, &r); err != nil {
		q.req.Answer(event.Answer{Decision: event.Deny, Reason: "the permission prompt's answer could not be read"})
		return
	}
	switch {
	case r.Behavior == "allow" && q.req.Kind == event.ApproveDelegation:
		a := event.Answer{Decision: event.Allow}
		var edited struct {
			Prompt string `json:"prompt"`
		}
		if json.Unmarshal(r.UpdatedInput, &edited) == nil && edited.Prompt != "" && edited.Prompt != q.req.Delegation.Prompt {
			a.EditedPrompt = edited.Prompt
		}
		q.req.Answer(a)
	case r.Behavior == "allow" && (len(r.UpdatedInput) == 0 || sameJSON(r.UpdatedInput, q.input)):
		q.req.Answer(event.Answer{Decision: event.Allow})
	case r.Behavior == "allow":
		q.req.Answer(event.Answer{Decision: event.Deny, Reason: "the permission prompt changed the call's input, which baton does not run"})
	default:
		reason := r.Message
		if reason == "" {
			reason = "denied by the permission prompt"
		}
		q.req.Answer(event.Answer{Decision: event.Deny, Reason: reason})
		if r.Interrupt && s != nil {
			s.Interrupt()
		}
	}
}

// refuseWaiting answers every open question with a denial: stdin ended,
// so no answer will come.
func (in *streamInput) refuseWaiting() {
	for id, q := range in.waiting {
		q.req.Answer(event.Answer{Decision: event.Deny, Reason: "stdin has ended: nobody can answer"})
		delete(in.waiting, id)
	}
}

// sameJSON reports whether two JSON documents hold the same value.
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}
