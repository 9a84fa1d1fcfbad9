package engine

import (
	"context"
	"fmt"
	"math"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// request streams one chat completion over the agent's history, sending
// coalesced text and reasoning deltas as events while they arrive.
func (a *Agent) request(ctx context.Context, withTools bool) (llm.Response, error) {
	model := a.model()
	req := openai.ChatCompletionRequest{Model: model, Messages: a.requestMessages()}
	if set := a.toolSet(); withTools && set != nil && len(set.Tools()) > 0 {
		req.Tools = tools.ToOpenAI(set.Tools())
	}
	if a.effort != "" {
		if info, ok := a.catalog.Lookup(model); ok && info.CanReason {
			req.ReasoningEffort = a.effort
		}
	}
	req.Temperature, req.TopP = sampling(a.temperature), sampling(a.topP)
	text := &coalescer{send: func(s string) { a.emit(event.TextDelta{Meta: a.stamp(), Text: s}) }}
	reasoning := &coalescer{send: func(s string) { a.emit(event.ReasoningDelta{Meta: a.stamp(), Text: s}) }}
	resp, err := llm.Stream(ctx, a.client, req, llm.Handler{
		OnText: func(s string) {
			reasoning.flush()
			text.add(s)
		},
		OnReasoning: reasoning.add,
		OnToolDelta: text.flush,
		MaxBytes:    a.requests.replyMaxBytes,
	})
	reasoning.stop()
	text.stop()
	return resp, err
}

// sampling converts a type's sampling setting for the request. go-openai
// leaves a zero out of the JSON, which would mean the model's default (1
// for temperature), so an asked-for zero is sent as the smallest positive
// float32, which every API reads as zero.
func sampling(v *float64) float32 {
	switch {
	case v == nil:
		return 0
	case *v == 0:
		return math.SmallestNonzeroFloat32
	}
	return float32(*v)
}

// fallBack switches to the fallback model once when the endpoint rejected
// the model as unknown, and reports whether the request should be retried.
func (a *Agent) fallBack(err error) bool {
	from, to := a.model(), a.fallbackModel
	if to == "" || to == from || !llm.IsModelNotFound(err) {
		return false
	}
	a.fallbackModel = ""
	a.model = func() string { return to }
	note := fmt.Sprintf("model %s was not found by the endpoint; fell back to %s", from, to)
	a.notes = append(a.notes, note)
	a.emit(event.Notice{Meta: a.stamp(), Text: note})
	return true
}

// account adds a request's usage to the run and reports it.
func (a *Agent) account(run *runState, resp llm.Response) {
	if !resp.HasUsage {
		return
	}
	a.contextUsed = resp.Usage.PromptTokens + resp.Usage.CompletionTokens
	u := a.catalog.Cost(a.model(), resp.Usage)
	run.stats.Usage = run.stats.Usage.Add(u)
	a.emit(event.UsageReported{Meta: a.stamp(), Request: u, Total: run.stats.Usage})
}
