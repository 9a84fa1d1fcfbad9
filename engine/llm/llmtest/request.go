package llmtest

import (
	"net/http"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/llm"
)

// Request is one chat request as the server received it.
type Request struct {
	Body openai.ChatCompletionRequest
	Raw  []byte
	// Header is the request's HTTP header (Authorization carries the key).
	Header http.Header
	Index  int // 0-based arrival order
}

// System returns the system messages' text, joined by newlines, so a
// responder can tell a child agent's request from its parent's.
func (r *Request) System() string {
	var parts []string
	for _, m := range r.Body.Messages {
		if m.Role == openai.ChatMessageRoleSystem {
			parts = append(parts, llm.MessageText(m))
		}
	}
	return strings.Join(parts, "\n")
}

// LastUser returns the text of the last user message, or "".
func (r *Request) LastUser() string {
	for i := len(r.Body.Messages) - 1; i >= 0; i-- {
		if m := r.Body.Messages[i]; m.Role == openai.ChatMessageRoleUser {
			return llm.MessageText(m)
		}
	}
	return ""
}

// ToolNames returns the names of the tools offered, in request order.
func (r *Request) ToolNames() []string {
	names := make([]string, 0, len(r.Body.Tools))
	for _, t := range r.Body.Tools {
		if t.Function != nil {
			names = append(names, t.Function.Name)
		}
	}
	return names
}

// HasToolResult reports whether any tool result message contains substr,
// which is how a responder knows a tool ran before it answers.
func (r *Request) HasToolResult(substr string) bool {
	for _, m := range r.Body.Messages {
		if m.Role == openai.ChatMessageRoleTool && strings.Contains(llm.MessageText(m), substr) {
			return true
		}
	}
	return false
}
