package engine

import (
	"encoding/json"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
)

// addHistory appends messages to the history and the transcript.
func (a *Agent) addHistory(msgs ...openai.ChatCompletionMessage) {
	for _, m := range msgs {
		a.history = append(a.history, m)
		if a.record != nil {
			a.record(m)
		}
	}
}

// historyCalls copies calls for the history with arguments that are not
// valid JSON replaced by "{}": strict backends re-parse every past call and
// would refuse all later requests. The tool error tells the model what
// was wrong with the call it sent.
func historyCalls(calls []openai.ToolCall) []openai.ToolCall {
	out := make([]openai.ToolCall, len(calls))
	for i, c := range calls {
		if !json.Valid([]byte(c.Function.Arguments)) {
			c.Function.Arguments = "{}"
		}
		out[i] = c
	}
	return out
}

// keepPartial records an interrupted message's text in the history, so a
// follow-up turn knows what was already said. Half-made tool calls are
// never kept.
func (a *Agent) keepPartial(resp llm.Response) {
	if resp.Content == "" {
		return
	}
	a.addHistory(openai.ChatCompletionMessage{
		Role:    openai.ChatMessageRoleAssistant,
		Content: resp.Content + "\n\n[interrupted]",
	})
	a.emit(event.MessageDone{Meta: a.stamp(), Text: resp.Content})
}

// deliverInbox moves messages the person sent into the history.
func (a *Agent) deliverInbox() {
	for _, text := range a.inbox.take() {
		a.addHistory(openai.ChatCompletionMessage{
			Role:    openai.ChatMessageRoleUser,
			Content: "Message from the person supervising you: " + text,
		})
		a.emit(event.AgentMessage{Meta: a.stamp(), Text: text})
	}
}

// takeArrivals delivers what arrived for the agent since its last request.
func (a *Agent) takeArrivals(run *runState) {
	if a.arrivals != nil {
		a.arrivals(a, run)
	}
}
