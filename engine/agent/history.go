package agent

import (
	"encoding/json"
	"slices"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
)

// Append adds messages to the history and the record.
func (a *Agent) Append(msgs ...openai.ChatCompletionMessage) {
	for _, m := range msgs {
		a.history = append(a.history, m)
		if a.cfg.Record != nil {
			a.cfg.Record(m)
		}
	}
}

// History returns a copy of the agent's history. Only the goroutine
// running the agent, or its owner once the run is over, may call it.
func (a *Agent) History() []openai.ChatCompletionMessage {
	return slices.Clone(a.history)
}

// Load replaces the history with one read back from the record (a resumed
// conversation); it is not recorded again.
func (a *Agent) Load(history []openai.ChatCompletionMessage) {
	a.history = slices.Clone(history)
}

// Restart keeps only the system prompt, then appends (and records) first:
// a cleared conversation, or a compacted one starting from its summary.
func (a *Agent) Restart(first ...openai.ChatCompletionMessage) {
	a.history = a.history[:min(1, len(a.history))]
	a.contextUsed = 0
	a.Append(first...)
}

// Empty reports whether the history holds no more than its system prompt.
func (a *Agent) Empty() bool { return len(a.history) <= 1 }

// ContextUsed is the tokens of the last request (prompt and reply): how
// full the context is.
func (a *Agent) ContextUsed() int { return a.contextUsed }

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
	a.Append(openai.ChatCompletionMessage{
		Role:    openai.ChatMessageRoleAssistant,
		Content: resp.Content + "\n\n[interrupted]",
	})
	a.Emit(event.MessageDone{Meta: a.Stamp(), Text: resp.Content})
}

// deliverInbox moves messages the person sent into the history.
func (a *Agent) deliverInbox() {
	for _, text := range a.inbox.take() {
		a.Append(openai.ChatCompletionMessage{
			Role:    openai.ChatMessageRoleUser,
			Content: "Message from the person supervising you: " + text,
		})
		a.Emit(event.AgentMessage{Meta: a.Stamp(), Text: text})
	}
}

// deliverTold moves the queued notes into the history.
func (a *Agent) deliverTold() {
	for _, text := range a.told.take() {
		a.Append(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: "[baton] " + text})
	}
}

// takeArrivals delivers what arrived for the agent since its last
// request, counting the usage it brought.
func (a *Agent) takeArrivals(run *runState) {
	if a.cfg.Arrivals != nil {
		a.addUsage(run, a.cfg.Arrivals(a))
	}
}
