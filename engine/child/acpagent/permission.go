package acpagent

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/acp/jsonrpc"
	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// permission answers the agent's session/request_permission: the call it
// is about becomes the baton call it amounts to, decided by the person's
// rules and, when they say ask, a card labelled with the child. A refusal
// picks the agent's reject option and gives the reason in _meta.
func (h *handle) permission(ctx context.Context, params json.RawMessage) (any, error) {
	var req permissionRequest
	if err := json.Unmarshal(params, &req); err != nil {
		return nil, jsonrpc.InvalidParams("invalid params: %v", err)
	}
	tr := h.toolRequest(req.ToolCall)
	err := h.beforeTool(ctx, &tr)
	if err == nil {
		_, err = h.job.Link.Authorize.Authorize(ctx, tr)
	}
	if err != nil && ctx.Err() != nil {
		return permissionResponse{Outcome: permissionOutcome{Outcome: "cancelled"}}, nil
	}
	if err == nil {
		if tr.Tool == "write_file" {
			h.grant(req.ToolCall.toolCall)
		}
		if id := pick(req.Options, "allow_once", "allow_always"); id != "" {
			return permissionResponse{Outcome: permissionOutcome{Outcome: "selected", OptionID: id}}, nil
		}
		return nil, errors.New("the request offers no option that allows the call")
	}
	resp := permissionResponse{Outcome: permissionOutcome{Outcome: "cancelled"}, Meta: map[string]string{"baton/reason": err.Error()}}
	if id := pick(req.Options, "reject_once", "reject_always"); id != "" {
		resp.Outcome = permissionOutcome{Outcome: "selected", OptionID: id}
	}
	return resp, nil
}

// beforeTool runs the session's PreToolUse hooks on the baton call an
// agent's request amounts to, as they run on a call of baton's own: a
// block refuses it with the hook's reason, an allow or ask goes to the
// rules with the request, and a hook's stop ends the agent's turn.
func (h *handle) beforeTool(ctx context.Context, tr *agent.ToolRequest) error {
	if h.limitCtx.Err() != nil {
		return errors.New("baton has stopped this agent: " + h.limitReason())
	}
	if h.job.Link.Hooks == nil {
		return nil
	}
	call := openai.ToolCall{ID: tr.CallID, Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: tr.Tool, Arguments: string(tr.Args)}}
	adv, err := h.job.Link.Hooks.BeforeTool(ctx, call)
	if adv.Halted {
		h.stopBy(event.StatusCompleted, "stopped by a hook: "+cmp.Or(strings.TrimSpace(adv.HaltReason), "no reason given"))
	}
	if err != nil {
		return err
	}
	tr.Hook = adv.Decision
	return nil
}

// limitReason is why baton stopped the agent.
func (h *handle) limitReason() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.limit == nil {
		return "its run is over"
	}
	return h.limit.Reason
}

// pick is the id of the first option of the first kind offered.
func pick(options []permissionOption, kinds ...string) string {
	for _, kind := range kinds {
		for _, o := range options {
			if o.Kind == kind && o.OptionID != "" {
				return o.OptionID
			}
		}
	}
	return ""
}

// toolRequest is the baton call an agent's call amounts to, so the
// person's rules about it hold: a command is run_command with its
// command line, an edit write_file of its file, a read read_file, a fetch
// web_fetch; anything else is asked about by its title.
func (h *handle) toolRequest(c permissionToolCall) agent.ToolRequest {
	in := map[string]any{}
	_ = json.Unmarshal(c.RawInput, &in)
	path := ""
	if len(c.Locations) > 0 {
		path = c.Locations[0].Path
	}
	if path == "" {
		path = firstString(in, "path", "file_path", "filePath", "abs_path")
	}
	tr := agent.ToolRequest{CallID: "acp-" + c.ToolCallID}
	args := map[string]any{}
	switch c.Kind {
	case "execute":
		tr.Tool, args["command"] = "run_command", commandLine(in, c.Title)
	case "edit", "delete", "move":
		tr.Tool, args["path"] = "write_file", path
		tr.Preview = func(context.Context) (string, error) { return previewOf(c.Content), nil }
	case "read", "search":
		tr.Tool, tr.ReadOnly, args["path"] = "read_file", true, path
	case "fetch":
		tr.Tool, args["url"] = "web_fetch", firstString(in, "url", "uri")
	default:
		tr.Tool, args["title"] = "acp_tool", oneLine(c.Title)
	}
	tr.Args, _ = json.Marshal(args)
	return tr
}

// commandLine is the command a call runs, from the fields agents use
// for it, else its title.
func commandLine(in map[string]any, title string) string {
	cmd := firstString(in, "command", "cmd")
	if cmd == "" {
		if list, ok := in["command"].([]any); ok {
			var parts []string
			for _, p := range list {
				if s, ok := p.(string); ok {
					parts = append(parts, s)
				}
			}
			cmd = strings.Join(parts, " ")
		}
	}
	if args, ok := in["args"].([]any); ok && cmd != "" {
		for _, a := range args {
			if s, ok := a.(string); ok {
				cmd += " " + s
			}
		}
	}
	if cmd == "" {
		cmd = strings.Trim(oneLine(title), "`")
	}
	return cmd
}

// firstString is the first of keys in m holding a string.
func firstString(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// previewOf is what an edit's card shows: its diffs, else its text.
func previewOf(items []toolContent) string {
	raw, _ := json.Marshal(items)
	out, diff := shown(raw)
	if diff != "" {
		return diff
	}
	return out
}

// grant lets the agent write, once each, the files of an edit the person
// allowed: its fs/write_text_file for it is not asked about again.
func (h *handle) grant(c toolCall) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, l := range c.Locations {
		if abs, err := h.job.Workspace.Resolve(l.Path); err == nil && len(h.granted) < maxOpenCalls {
			h.granted[abs]++
		}
	}
}

// takeGrant uses up a grant for the file at abs, if there is one.
func (h *handle) takeGrant(abs string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.granted[filepath.Clean(abs)] == 0 {
		return false
	}
	h.granted[abs]--
	if h.granted[abs] == 0 {
		delete(h.granted, abs)
	}
	return true
}
