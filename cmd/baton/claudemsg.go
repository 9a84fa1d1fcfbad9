package main

import (
	"crypto/rand"
	"encoding/json"
	"fmt"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// claudeInfo is what Claude Code's system/init message says about the
// session, gathered once the session exists.
type claudeInfo struct {
	sessionID string
	model     string
	cwd       string
	tools     []string
	agents    []string
	commands  []string
	mcp       []event.MCPServer
	// permissionMode is Claude Code's name for how calls are decided.
	permissionMode string
	version        string
	sandbox        string
}

// The messages of Claude Code's stream-json, as its Agent SDK types them
// (SDKSystemMessage, SDKAssistantMessage, SDKUserMessage,
// SDKPartialAssistantMessage, SDKResultMessage). Fields baton adds are
// named so a Claude Code reader passes them by.

type claudeInit struct {
	Type              string            `json:"type"`
	Subtype           string            `json:"subtype"`
	CWD               string            `json:"cwd"`
	SessionID         string            `json:"session_id"`
	Tools             []string          `json:"tools"`
	MCPServers        []claudeMCPStatus `json:"mcp_servers"`
	Model             string            `json:"model"`
	PermissionMode    string            `json:"permissionMode"`
	SlashCommands     []string          `json:"slash_commands"`
	APIKeySource      string            `json:"apiKeySource"`
	ClaudeCodeVersion string            `json:"claude_code_version"`
	OutputStyle       string            `json:"output_style"`
	Agents            []string          `json:"agents"`
	Skills            []string          `json:"skills"`
	Plugins           []string          `json:"plugins"`
	UUID              string            `json:"uuid"`
	// Baton says which program answers: claude_code_version carries
	// baton's version, as there is no Claude Code here.
	Baton   string `json:"baton_version"`
	Sandbox string `json:"sandbox"`
}

type claudeMCPStatus struct {
	Name   string `json:"name"`
	Status string `json:"status"`
}

// claudeEnvelope is an assistant or user message.
type claudeEnvelope struct {
	Type            string  `json:"type"`
	Message         any     `json:"message"`
	ParentToolUseID *string `json:"parent_tool_use_id"`
	SessionID       string  `json:"session_id"`
	UUID            string  `json:"uuid"`
	// Agent is baton's id of the agent that said it.
	Agent event.AgentID `json:"baton_agent,omitempty"`
	// ToolUseResult, on a task call's result, is how its sub-agent
	// ended.
	ToolUseResult any `json:"tool_use_result,omitempty"`
}

// claudeAssistant is an Anthropic Messages API message; the fields of
// features baton has no part in (containers, context management) are
// null, as the API sends them when unused.
type claudeAssistant struct {
	ID                string        `json:"id"`
	Type              string        `json:"type"`
	Role              string        `json:"role"`
	Model             string        `json:"model"`
	Content           []claudeBlock `json:"content"`
	StopReason        *string       `json:"stop_reason"`
	StopSequence      *string       `json:"stop_sequence"`
	StopDetails       *struct{}     `json:"stop_details"`
	Container         *struct{}     `json:"container"`
	ContextManagement *struct{}     `json:"context_management"`
	Diagnostics       *struct{}     `json:"diagnostics"`
	Usage             messageUsage  `json:"usage"`
}

// messageUsage is a request's usage as the Messages API reports it; what
// an OpenAI-compatible endpoint does not report is null.
type messageUsage struct {
	claudeUsage
	CacheCreation       *cacheCreation `json:"cache_creation"`
	FallbackCredit      *struct{}      `json:"fallback_credit"`
	InferenceGeo        *string        `json:"inference_geo"`
	Iterations          *[]struct{}    `json:"iterations"`
	OutputTokensDetails *outputDetails `json:"output_tokens_details"`
	ServerToolUse       *serverTools   `json:"server_tool_use"`
	ServiceTier         *string        `json:"service_tier"`
	Speed               *string        `json:"speed"`
}

type cacheCreation struct {
	Ephemeral1h int `json:"ephemeral_1h_input_tokens"`
	Ephemeral5m int `json:"ephemeral_5m_input_tokens"`
}

type outputDetails struct {
	ThinkingTokens int `json:"thinking_tokens"`
}

type serverTools struct {
	WebFetchRequests  int `json:"web_fetch_requests"`
	WebSearchRequests int `json:"web_search_requests"`
}

// resultUsageOf is a run's usage in the form Claude Code's result gives
// it, every field set (zero where baton has nothing to count), with
// baton's own counts after Claude Code's.
func resultUsageOf(u event.Usage) resultUsage {
	standard, geo := "standard", ""
	return resultUsage{
		messageUsage: messageUsage{claudeUsage: claudeUsage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens},
			CacheCreation: &cacheCreation{}, InferenceGeo: &geo, Iterations: &[]struct{}{}, OutputTokensDetails: &outputDetails{},
			ServerToolUse: &serverTools{}, ServiceTier: &standard, Speed: &standard},
		PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens, Requests: u.Requests,
	}
}

// claudeUserMessage is a user turn: a prompt or tool results.
type claudeUserMessage struct {
	Role    string        `json:"role"`
	Content []claudeBlock `json:"content"`
}

// claudeBlock is one content block: text, tool_use or tool_result. An
// assistant's text block has citations, null.
type claudeBlock struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text,omitempty"`
	Citations json.RawMessage `json:"citations,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   *string         `json:"content,omitempty"`
	IsError   *bool           `json:"is_error,omitempty"`
}

// claudeUsage is the Messages API usage, with baton's counts beside it.
type claudeUsage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

// claudeStreamEvent is a partial message (--include-partial-messages).
type claudeStreamEvent struct {
	Type            string  `json:"type"`
	Event           any     `json:"event"`
	ParentToolUseID *string `json:"parent_tool_use_id"`
	SessionID       string  `json:"session_id"`
	UUID            string  `json:"uuid"`
}

// claudeResult closes a prompt's run. After the fields of Claude Code's
// result come baton's: the status, the cost when it is known (null when
// the model has no price, where total_cost_usd says 0), the sandbox, and
// what the run left (worktrees, background sub-agents, its transcript).
type claudeResult struct {
	Type              string                      `json:"type"`
	Subtype           string                      `json:"subtype"`
	IsError           bool                        `json:"is_error"`
	DurationMS        int64                       `json:"duration_ms"`
	DurationAPIMS     int64                       `json:"duration_api_ms"`
	NumTurns          int                         `json:"num_turns"`
	Result            string                      `json:"result"`
	StopReason        *string                     `json:"stop_reason"`
	SessionID         string                      `json:"session_id"`
	TotalCostUSD      float64                     `json:"total_cost_usd"`
	Usage             resultUsage                 `json:"usage"`
	ModelUsage        map[string]claudeModelUsage `json:"modelUsage"`
	PermissionDenials []claudeDenial              `json:"permission_denials"`
	Errors            []string                    `json:"errors,omitempty"`
	UUID              string                      `json:"uuid"`
	batonResult
}

// resultUsage is Claude Code's usage with baton's counts added.
type resultUsage struct {
	messageUsage
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	Requests         int `json:"requests"`
}

type claudeModelUsage struct {
	InputTokens              int     `json:"inputTokens"`
	OutputTokens             int     `json:"outputTokens"`
	CacheReadInputTokens     int     `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int     `json:"cacheCreationInputTokens"`
	WebSearchRequests        int     `json:"webSearchRequests"`
	CostUSD                  float64 `json:"costUSD"`
	ContextWindow            int     `json:"contextWindow"`
	MaxOutputTokens          int     `json:"maxOutputTokens"`
}

// claudeDenial is a call the rules refused.
type claudeDenial struct {
	ToolName  string          `json:"tool_name"`
	ToolUseID string          `json:"tool_use_id"`
	ToolInput json.RawMessage `json:"tool_input"`
}

// newUUID returns a random (version 4) UUID, the form Claude Code's
// messages are identified by.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// toolInput is a call's arguments as the object Claude Code's tool_use
// carries; arguments that are not a JSON object (a model's mistake) are
// kept as text under "arguments".
func toolInput(args string) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &obj) == nil && obj != nil {
		return json.RawMessage(args)
	}
	b, _ := json.Marshal(map[string]string{"arguments": args})
	return b
}

// resultSubtype is Claude Code's name for how a run ended.
func resultSubtype(s event.Status) string {
	switch s {
	case event.StatusCompleted:
		return "success"
	case event.StatusMaxSteps:
		return "error_max_turns"
	case event.StatusBudgetExceeded:
		return "error_max_budget_usd"
	}
	return "error_during_execution"
}
