package acpagent

import (
	"context"
	"fmt"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// stopBy ends the agent's run with status for reason: session/cancel,
// then the kill after the grace if it does not end its turn. The first
// call counts.
func (h *handle) stopBy(status event.Status, reason string) {
	h.mu.Lock()
	first := h.limit == nil && !h.finished
	if first {
		h.limit = &agent.Result{Status: status, Reason: reason}
	}
	h.mu.Unlock()
	if first {
		h.stream.notice("baton stops the ACP agent: " + reason)
	}
	h.endByLimit()
}

// limited is res with the ending stopBy chose, unless the child was
// stopped from outside first.
func (h *handle) limited(ctx context.Context, res agent.Result) agent.Result {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.limit == nil || ctx.Err() != nil {
		return res
	}
	res.Status, res.Reason = h.limit.Status, h.limit.Reason
	return res
}

// account adds a turn's reported tokens to the child's use and says
// which bound of its budget they reached, or "". The agent reports them
// when a turn ends, so the budget holds between turns: the person's
// next message is not sent once it is spent. An agent that reports none
// cannot be held to a token or cost budget, and the pane says so once.
func (h *handle) account(u *turnUsage) string {
	budget := h.job.Spec.Budget
	if u == nil {
		if (budget.Tokens > 0 || budget.CostUSD > 0) && h.stream.once("usage") {
			h.stream.notice("the ACP agent reports no token use, so baton cannot hold it to its token or cost budget")
		}
		return ""
	}
	if budget.CostUSD > 0 && h.stream.once("cost") {
		h.stream.notice("the ACP agent reports its tokens but not their price, so baton holds it to its token budget only")
	}
	total := h.stream.addUsage(event.Usage{PromptTokens: u.InputTokens, CompletionTokens: u.OutputTokens,
		TotalTokens: max(u.TotalTokens, u.InputTokens+u.OutputTokens), Requests: 1})
	return budget.Spent(total)
}

// countStep holds the agent to its step limit: each tool call it begins
// is a step (a model request that called a tool), and the one past the
// limit ends the child with max_steps, as baton's own loop ends before
// the step past its limit.
func (h *handle) countStep(calls int) {
	if limit := h.job.Spec.MaxSteps; limit > 0 && calls > limit {
		h.stopBy(event.StatusMaxSteps, fmt.Sprintf("step limit reached (%d tool calls)", limit))
	}
}
