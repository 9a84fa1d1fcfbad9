package llmtest

import (
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// Request is one chat request as the server received it.
type Request struct {
	Body  openai.ChatCompletionRequest
	Raw   []byte
	Index int // 0-based arrival order
}

// System returns the system messages' text, joined by newlines, so a
// responder can tell a child agent's request from its parent's.
func (r *Request) System() string {
	var parts []string
	for _, m := range r.Body.Messages {
		if m.Role == openai.ChatMessageRoleSystem {
			parts = append(parts, text(m))
		}
	}
	return strings.Join(parts, "\n")
}

// LastUser returns the text of the last user message, or "".
func (r *Request) LastUser() string {
	for i := len(r.Body.Messages) - 1; i >= 0; i-- {
		if m := r.Body.Messages[i]; m.Role == openai.ChatMessageRoleUser {
			return text(m)
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
		if m.Role == openai.ChatMessageRoleTool && strings.Contains(text(m), substr) {
			return true
		}
	}
	return false
}

// text returns a message's content whether sent as a string or as parts.
func text(m openai.ChatCompletionMessage) string {
	if len(m.MultiContent) == 0 {
		return m.Content
	}
	var b strings.Builder
	for _, p := range m.MultiContent {
		b.WriteString(p.Text)
	}
	return b.String()
}
