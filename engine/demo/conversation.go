package demo

import (
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/llm"
)

// taskTool is the engine's delegation tool; only the main agent is offered
// it, which is how the script tells the main agent from a child.
const taskTool = "task"

// reply is one scripted assistant message: text, tool calls, or both.
type reply struct {
	text  string
	calls []toolCall
}

// toolCall is one call in a reply; args is a JSON object.
type toolCall struct {
	id, name, args string
}

// exchange is a tool call made earlier in the conversation and its result.
type exchange struct {
	id, name, args string
	output         string
	// failed is set when the engine reported the call as an error.
	failed bool
}

// conversation is a request seen by the script.
type conversation struct {
	messages []openai.ChatCompletionMessage
	// tools maps each offered tool's name to its description.
	tools map[string]string
}

// newConversation reads the parts of req the script uses.
func newConversation(req *openai.ChatCompletionRequest) *conversation {
	c := &conversation{messages: req.Messages, tools: map[string]string{}}
	for _, t := range req.Tools {
		if t.Function != nil {
			c.tools[t.Function.Name] = t.Function.Description
		}
	}
	return c
}

// respond decides the reply to a request from the request alone.
func respond(req *openai.ChatCompletionRequest) reply {
	c := newConversation(req)
	if c.offers(taskTool) {
		return lead(c)
	}
	return child(c)
}

// offers reports whether the request offers the named tool.
func (c *conversation) offers(name string) bool {
	_, ok := c.tools[name]
	return ok
}

// lastUser returns the index of the last user message, or -1.
func (c *conversation) lastUser() int {
	for i := len(c.messages) - 1; i >= 0; i-- {
		if c.messages[i].Role == openai.ChatMessageRoleUser {
			return i
		}
	}
	return -1
}

// userTexts returns the text of every user message, in order.
func (c *conversation) userTexts() []string {
	var out []string
	for _, m := range c.messages {
		if m.Role == openai.ChatMessageRoleUser {
			out = append(out, llm.MessageText(m))
		}
	}
	return out
}

// exchangesAfter pairs every tool result after message index from with
// the call it answers, in the order the results arrived.
func (c *conversation) exchangesAfter(from int) []exchange {
	calls := map[string]openai.ToolCall{}
	var out []exchange
	for _, m := range c.messages[from+1:] {
		switch m.Role {
		case openai.ChatMessageRoleAssistant:
			for _, tc := range m.ToolCalls {
				calls[tc.ID] = tc
			}
		case openai.ChatMessageRoleTool:
			ex := exchange{id: m.ToolCallID, name: m.Name, output: llm.MessageText(m)}
			if tc, ok := calls[m.ToolCallID]; ok {
				ex.name, ex.args = tc.Function.Name, tc.Function.Arguments
			}
			ex.failed = strings.HasPrefix(ex.output, "Error: ")
			out = append(out, ex)
		}
	}
	return out
}

// clip shortens s to at most n runes on one line, marking the cut.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
