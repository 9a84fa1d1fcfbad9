package llm

import (
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// MessageText returns a chat message's text whether it was sent as a
// string or as content parts.
func MessageText(m openai.ChatCompletionMessage) string {
	if len(m.MultiContent) == 0 {
		return m.Content
	}
	var b strings.Builder
	for _, p := range m.MultiContent {
		b.WriteString(p.Text)
	}
	return b.String()
}
