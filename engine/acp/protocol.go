package acp

import "encoding/json"

// ProtocolVersion is the ACP version baton speaks.
const ProtocolVersion = 1

// The messages below are the parts of ACP v1's schema baton sends or
// reads, with the schema's field names; optional fields are omitted when
// empty.

type implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

type initializeRequest struct {
	ProtocolVersion    int                `json:"protocolVersion"`
	ClientCapabilities clientCapabilities `json:"clientCapabilities"`
}

// clientCapabilities are what the editor offers: its buffers and its
// terminals.
type clientCapabilities struct {
	FS struct {
		ReadTextFile  bool `json:"readTextFile"`
		WriteTextFile bool `json:"writeTextFile"`
	} `json:"fs"`
	Terminal bool `json:"terminal"`
}

type initializeResponse struct {
	ProtocolVersion   int               `json:"protocolVersion"`
	AgentCapabilities agentCapabilities `json:"agentCapabilities"`
	AuthMethods       []struct{}        `json:"authMethods"`
	AgentInfo         implementation    `json:"agentInfo"`
}

type agentCapabilities struct {
	LoadSession        bool `json:"loadSession"`
	PromptCapabilities struct {
		Image           bool `json:"image"`
		Audio           bool `json:"audio"`
		EmbeddedContext bool `json:"embeddedContext"`
	} `json:"promptCapabilities"`
	MCPCapabilities struct {
		HTTP bool `json:"http"`
		SSE  bool `json:"sse"`
	} `json:"mcpCapabilities"`
	SessionCapabilities struct {
		List  *struct{} `json:"list,omitempty"`
		Close *struct{} `json:"close,omitempty"`
	} `json:"sessionCapabilities"`
}

// mcpServer is one MCP server the editor hands over: stdio (no type),
// "http" or "sse".
type mcpServer struct {
	Type    string    `json:"type,omitempty"`
	Name    string    `json:"name"`
	Command string    `json:"command,omitempty"`
	Args    []string  `json:"args,omitempty"`
	Env     []nameVal `json:"env,omitempty"`
	URL     string    `json:"url,omitempty"`
	Headers []nameVal `json:"headers,omitempty"`
}

type nameVal struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type newSessionRequest struct {
	Cwd        string      `json:"cwd"`
	MCPServers []mcpServer `json:"mcpServers"`
}

type loadSessionRequest struct {
	SessionID  string      `json:"sessionId"`
	Cwd        string      `json:"cwd"`
	MCPServers []mcpServer `json:"mcpServers"`
}

// sessionSetup is the answer to session/new (with the id) and
// session/load (without).
type sessionSetup struct {
	SessionID     string         `json:"sessionId,omitempty"`
	Modes         modeState      `json:"modes"`
	ConfigOptions []configOption `json:"configOptions"`
}

type modeState struct {
	CurrentModeID  string        `json:"currentModeId"`
	AvailableModes []sessionMode `json:"availableModes"`
}

type sessionMode struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// configOption is a select among values (the mode, the model).
type configOption struct {
	ID           string         `json:"id"`
	Name         string         `json:"name"`
	Description  string         `json:"description,omitempty"`
	Category     string         `json:"category,omitempty"`
	Type         string         `json:"type"`
	CurrentValue string         `json:"currentValue"`
	Options      []selectOption `json:"options"`
}

type selectOption struct {
	Value       string `json:"value"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

type sessionRef struct {
	SessionID string `json:"sessionId"`
}

type setModeRequest struct {
	SessionID string `json:"sessionId"`
	ModeID    string `json:"modeId"`
}

type setConfigOptionRequest struct {
	SessionID string          `json:"sessionId"`
	ConfigID  string          `json:"configId"`
	Value     json.RawMessage `json:"value"`
}

type setConfigOptionResponse struct {
	ConfigOptions []configOption `json:"configOptions"`
}

type listSessionsRequest struct {
	Cwd string `json:"cwd"`
}

type listSessionsResponse struct {
	Sessions []sessionInfo `json:"sessions"`
}

type sessionInfo struct {
	SessionID string `json:"sessionId"`
	Cwd       string `json:"cwd"`
	Title     string `json:"title,omitempty"`
	UpdatedAt string `json:"updatedAt,omitempty"`
}

type promptRequest struct {
	SessionID string         `json:"sessionId"`
	Prompt    []contentBlock `json:"prompt"`
}

type promptResponse struct {
	StopReason string `json:"stopReason"`
}

// The stop reasons of a prompt turn.
const (
	stopEndTurn   = "end_turn"
	stopMaxTurns  = "max_turn_requests"
	stopCancelled = "cancelled"
)

// contentBlock is a block of a prompt: text, a link to a resource, or an
// embedded resource (images and audio are not offered).
type contentBlock struct {
	Type     string           `json:"type"`
	Text     string           `json:"text,omitempty"`
	URI      string           `json:"uri,omitempty"`
	Name     string           `json:"name,omitempty"`
	Title    string           `json:"title,omitempty"`
	MimeType string           `json:"mimeType,omitempty"`
	Resource *resourceContent `json:"resource,omitempty"`
}

type resourceContent struct {
	URI      string  `json:"uri"`
	MimeType string  `json:"mimeType,omitempty"`
	Text     *string `json:"text,omitempty"`
	Blob     *string `json:"blob,omitempty"`
}

// textBlock is the content block baton sends: always text.
type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

func text(s string) textBlock { return textBlock{Type: "text", Text: s} }

type sessionNotification struct {
	SessionID string `json:"sessionId"`
	Update    any    `json:"update"`
}

// chunk is a user_message_chunk, agent_message_chunk or
// agent_thought_chunk.
type chunk struct {
	SessionUpdate string    `json:"sessionUpdate"`
	Content       textBlock `json:"content"`
}

// toolCall is a tool_call (every field set as known) or a
// tool_call_update (only what changed).
type toolCall struct {
	SessionUpdate string          `json:"sessionUpdate,omitempty"`
	ToolCallID    string          `json:"toolCallId"`
	Title         string          `json:"title,omitempty"`
	Name          string          `json:"name,omitempty"`
	Kind          string          `json:"kind,omitempty"`
	Status        string          `json:"status,omitempty"`
	Content       []toolContent   `json:"content,omitempty"`
	Locations     []location      `json:"locations,omitempty"`
	RawInput      json.RawMessage `json:"rawInput,omitempty"`
}

// The statuses of a tool call.
const (
	statusPending    = "pending"
	statusInProgress = "in_progress"
	statusCompleted  = "completed"
	statusFailed     = "failed"
)

// toolContent is what a tool call shows: text, a diff or a terminal.
type toolContent struct {
	Type       string     `json:"type"`
	Content    *textBlock `json:"content,omitempty"`
	Path       string     `json:"path,omitempty"`
	OldText    *string    `json:"oldText,omitempty"`
	NewText    *string    `json:"newText,omitempty"`
	TerminalID string     `json:"terminalId,omitempty"`
}

func textContent(s string) toolContent {
	b := text(s)
	return toolContent{Type: "content", Content: &b}
}

type location struct {
	Path string `json:"path"`
	Line int    `json:"line,omitempty"`
}

type planUpdate struct {
	SessionUpdate string      `json:"sessionUpdate"`
	Entries       []planEntry `json:"entries"`
}

type planEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority"`
	Status   string `json:"status"`
}

type modeUpdate struct {
	SessionUpdate string `json:"sessionUpdate"`
	CurrentModeID string `json:"currentModeId"`
}

type configUpdate struct {
	SessionUpdate string         `json:"sessionUpdate"`
	ConfigOptions []configOption `json:"configOptions"`
}

type usageUpdate struct {
	SessionUpdate string `json:"sessionUpdate"`
	Used          int64  `json:"used"`
	Size          int64  `json:"size"`
	Cost          *cost  `json:"cost,omitempty"`
}

type cost struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}

type noticeUpdate struct {
	SessionUpdate string `json:"sessionUpdate"`
	Severity      string `json:"severity"`
	Title         string `json:"title"`
}

type permissionRequest struct {
	SessionID string             `json:"sessionId"`
	ToolCall  toolCall           `json:"toolCall"`
	Options   []permissionOption `json:"options"`
}

type permissionOption struct {
	OptionID string `json:"optionId"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
}

type permissionResponse struct {
	Outcome struct {
		Outcome  string `json:"outcome"`
		OptionID string `json:"optionId"`
	} `json:"outcome"`
}

type readTextFileRequest struct {
	SessionID string `json:"sessionId"`
	Path      string `json:"path"`
}

type readTextFileResponse struct {
	Content string `json:"content"`
}

type writeTextFileRequest struct {
	SessionID string `json:"sessionId"`
	Path      string `json:"path"`
	Content   string `json:"content"`
}

type createTerminalRequest struct {
	SessionID       string   `json:"sessionId"`
	Command         string   `json:"command"`
	Args            []string `json:"args"`
	Cwd             string   `json:"cwd,omitempty"`
	OutputByteLimit int      `json:"outputByteLimit,omitempty"`
}

type createTerminalResponse struct {
	TerminalID string `json:"terminalId"`
}

type terminalRef struct {
	SessionID  string `json:"sessionId"`
	TerminalID string `json:"terminalId"`
}

type exitStatus struct {
	ExitCode *int    `json:"exitCode"`
	Signal   *string `json:"signal"`
}

type terminalOutputResponse struct {
	Output     string      `json:"output"`
	Truncated  bool        `json:"truncated"`
	ExitStatus *exitStatus `json:"exitStatus"`
}
