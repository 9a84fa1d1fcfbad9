package hooks

import (
	"encoding/json"
	"path/filepath"
	"slices"

	"github.com/seed-e4e525a6/baton/engine/rules"
)

// Input is what happened, as the engine knows it; JSON writes it the way
// Claude Code sends it to a hook's stdin.
type Input struct {
	Event Event
	// SessionID, TranscriptPath and Cwd (the workspace) are in every
	// input; PermissionMode is baton's mode in Claude Code's words.
	SessionID      string
	TranscriptPath string
	Cwd            string
	PermissionMode string
	// AgentID and AgentType name the child the event concerns; empty for
	// the main agent.
	AgentID, AgentType string
	// Tool is baton's name of the tool, ToolInput its arguments as the
	// model sent them (baton's fields), ToolUseID the call's id and
	// ToolResponse its output (PostToolUse).
	Tool         string
	ToolInput    string
	ToolUseID    string
	ToolResponse string
	// Prompt is what the person submitted (UserPromptSubmit).
	Prompt string
	// StopHookActive says the agent goes on because a stop hook said so;
	// LastMessage is its last text (Stop, SubagentStop), AgentTranscript
	// the child's transcript (SubagentStop).
	StopHookActive  bool
	LastMessage     string
	AgentTranscript string
	// Source (SessionStart: startup, resume, clear, compact), Model
	// (SessionStart), Reason (SessionEnd), Trigger and Instructions
	// (PreCompact: manual or auto, and the focus asked for).
	Source, Model, Reason string
	Trigger, Instructions string
	// Message, Title and NotificationType describe a Notification.
	Message, Title, NotificationType string
}

// JSON is the input as Claude Code writes it: its field names, its tool
// names (Bash for run_command) and its tool input fields (file_path, an
// absolute path, for path).
func (in Input) JSON() []byte {
	m := map[string]any{
		"session_id": in.SessionID, "transcript_path": in.TranscriptPath, "cwd": in.Cwd,
		"hook_event_name": string(in.Event),
	}
	if in.PermissionMode != "" {
		m["permission_mode"] = in.PermissionMode
	}
	if in.AgentID != "" {
		m["agent_id"], m["agent_type"] = in.AgentID, in.AgentType
	}
	switch in.Event {
	case PreToolUse, PostToolUse:
		m["tool_name"] = ClaudeToolName(in.Tool)
		m["tool_input"] = claudeInput(in.Tool, in.ToolInput, in.Cwd)
		m["tool_use_id"] = in.ToolUseID
		if in.Event == PostToolUse {
			m["tool_response"] = claudeResponse(in.Tool, in.ToolInput, in.ToolResponse, in.Cwd)
		}
	case UserPromptSubmit:
		m["prompt"] = in.Prompt
	case Stop, SubagentStop:
		m["stop_hook_active"] = in.StopHookActive
		m["last_assistant_message"] = in.LastMessage
		if in.Event == SubagentStop {
			m["agent_transcript_path"] = in.AgentTranscript
		}
	case SubagentStart:
	case SessionStart:
		m["source"] = in.Source
		if in.Model != "" {
			m["model"] = in.Model
		}
	case SessionEnd:
		m["reason"] = in.Reason
	case PreCompact:
		m["trigger"] = in.Trigger
		m["custom_instructions"] = nil
		if in.Instructions != "" {
			m["custom_instructions"] = in.Instructions
		}
	case Notification:
		m["message"], m["notification_type"] = in.Message, in.NotificationType
		if in.Title != "" {
			m["title"] = in.Title
		}
	}
	data, _ := json.Marshal(m) // strings, bools and decoded JSON only
	return data
}

// ClaudeToolName is Claude Code's name for a baton tool (Bash for
// run_command); a tool Claude Code has no name for keeps baton's.
func ClaudeToolName(tool string) string {
	if names := rules.ClaudeNames(tool); len(names) > 0 {
		return names[0]
	}
	return tool
}

// claudeFields renames baton's argument fields to Claude Code's, per tool
// (a switch, so nothing is built at start).
func claudeFields(tool string) map[string]string {
	switch tool {
	case "read_file", "write_file", "edit_file":
		return map[string]string{"path": "file_path"}
	case "grep":
		return map[string]string{"ignore_case": "-i"}
	}
	return nil
}

// pathTools are the tools whose path Claude Code sends absolute.
var pathTools = []string{"read_file", "write_file", "edit_file", "grep", "find_files", "list_files"}

// claudeInput rewrites a call's arguments in Claude Code's field names:
// an absolute file_path for path, Bash's timeout in milliseconds. Fields
// baton has and Claude Code lacks stay as they are.
func claudeInput(tool, args, cwd string) any {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil || m == nil {
		return map[string]any{}
	}
	if p, ok := m["path"].(string); ok && slices.Contains(pathTools, tool) && p != "" && !filepath.IsAbs(p) {
		m["path"] = filepath.Join(cwd, p)
	}
	if tool == rules.CommandTool {
		if s, ok := m["timeout_s"].(float64); ok {
			delete(m, "timeout_s")
			m["timeout"] = s * 1000
		}
	}
	for from, to := range claudeFields(tool) {
		if v, ok := m[from]; ok {
			delete(m, from)
			m[to] = v
		}
	}
	return m
}

// claudeResponse is a PostToolUse's tool_response in the shape Claude
// Code's hooks read most: a command's stdout, a file tool's filePath, and
// for the rest the output as text.
func claudeResponse(tool, args, output, cwd string) any {
	switch tool {
	case rules.CommandTool:
		return map[string]any{"stdout": output, "stderr": "", "interrupted": false, "isImage": false}
	case "write_file", "edit_file", "read_file":
		in, _ := claudeInput(tool, args, cwd).(map[string]any)
		resp := map[string]any{"filePath": in["file_path"], "success": true}
		if tool == "read_file" {
			resp = map[string]any{"type": "text", "file": map[string]any{"filePath": in["file_path"], "content": output}}
		}
		return resp
	}
	return map[string]any{"output": output}
}
