package engine

import (
	"context"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// request streams one chat completion over the agent's history, sending
// coalesced text and reasoning deltas as events while they arrive.
func (a *Agent) request(ctx context.Context, withTools bool) (llm.Response, error) {
	model := a.model()
	req := openai.ChatCompletionRequest{Model: model, Messages: a.history}
	if withTools && a.tools != nil && len(a.tools.Tools()) > 0 {
		req.Tools = tools.ToOpenAI(a.tools.Tools())
	}
	if a.effort != "" {
		if info, ok := a.catalog.Lookup(model); ok && info.CanReason {
			req.ReasoningEffort = a.effort
		}
	}
	text := &coalescer{send: func(s string) { a.emit(TextDelta{Meta: a.stamp(), Text: s}) }}
	reasoning := &coalescer{send: func(s string) { a.emit(ReasoningDelta{Meta: a.stamp(), Text: s}) }}
	resp, err := llm.Stream(ctx, a.client, req, llm.Handler{
		OnText: func(s string) {
			reasoning.flush()
			text.add(s)
		},
		OnReasoning: reasoning.add,
		OnToolDelta: text.flush,
	})
	reasoning.flush()
	text.flush()
	return resp, err
}
