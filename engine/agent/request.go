package agent

import (
	"context"
	"fmt"
	"math"
	"net/http/httptrace"
	"sync"

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
	var begins func(name string) bool
	if set := a.toolSet(); withTools && set != nil && len(set.Tools()) > 0 {
		req.Tools = tools.ToOpenAI(set.Tools())
		begins = offeredBegins(set, a.cfg.ToolBegins)
		if a.cfg.RequestSent != nil {
			// Told once the request is on its way, not before: what it
			// readies does not hold up the request itself.
			sent := sync.OnceFunc(func() { a.cfg.RequestSent(set) })
			ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { sent() }})
		}
	}
	if a.cfg.Effort != "" {
		if info, ok := a.cfg.Catalog.Lookup(model); ok && info.CanReason {
			req.ReasoningEffort = a.cfg.Effort
		}
	}
	req.Temperature, req.TopP = sampling(a.cfg.Temperature), sampling(a.cfg.TopP)
	text := &heldText{send: func(s string) { a.Emit(event.TextDelta{Meta: a.Stamp(), Text: s}) }}
	reasoning := &heldText{send: func(s string) { a.Emit(event.ReasoningDelta{Meta: a.Stamp(), Text: s}) }}
	resp, err := llm.Stream(ctx, a.cfg.Client, req, llm.Handler{
		OnText: func(s string) {
			reasoning.flush()
			text.add(s)
		},
		OnReasoning: func(s string) {
			text.flush()
			reasoning.add(s)
		},
		OnToolDelta: text.flush,
		OnToolBegin: begins,
		OnWait: func() {
			reasoning.flush()
			text.flush()
		},
		MaxBytes: a.cfg.Requests.ReplyMaxBytes,
		Gather:   a.cfg.Requests.Gather,
	})
	reasoning.flush()
	text.flush()
	return resp, err
}

// offeredBegins is told of the calls the model begins to tools the
// request offered, and of no other: a model naming a tool it was not
// given (a task call where delegation is off) readies nothing for it.
func offeredBegins(set *tools.Set, told func(name string) bool) func(name string) bool {
	if told == nil {
		return nil
	}
	return func(name string) bool {
		if _, ok := set.Get(name); !ok {
			return false
		}
		return told(name)
	}
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
	from, to := a.model(), a.cfg.FallbackModel
	if to == "" || to == from || !llm.IsModelNotFound(err) {
		return false
	}
	a.cfg.FallbackModel = ""
	a.model = func() string { return to }
	note := fmt.Sprintf("model %s was not found by the endpoint; fell back to %s", from, to)
	a.notes = append(a.notes, note)
	a.Emit(event.Notice{Meta: a.Stamp(), Text: note})
	return true
}

// account adds a request's usage to the run and reports it.
func (a *Agent) account(run *runState, resp llm.Response) {
	if !resp.HasUsage {
		return
	}
	a.contextUsed = resp.Usage.PromptTokens + resp.Usage.CompletionTokens
	u := a.cfg.Catalog.Cost(a.model(), resp.Usage)
	run.stats.Usage = run.stats.Usage.Add(u)
	a.Emit(event.UsageReported{Meta: a.Stamp(), Request: u, Total: run.stats.Usage})
}
