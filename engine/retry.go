package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/seed-e4e525a6/baton/engine/llm"
)

// defaultRetryDelays are the waits before retrying a request the provider
// refused for a passing reason (rate limit, server error).
var defaultRetryDelays = []time.Duration{2 * time.Second, 6 * time.Second}

// retryable reports whether a failed request is worth sending again: the
// provider was busy or broken for a moment, and nothing was streamed yet.
func retryable(err error, resp llm.Response) bool {
	var pe *llm.ProviderError
	if resp.Content != "" || resp.Reasoning != "" || !errors.As(err, &pe) {
		return false
	}
	return pe.Status == 429 || pe.Status >= 500
}

// requestWithRetry sends a request, retrying passing provider failures
// after a pause that ctx can cut short; each retry is announced.
func (a *Agent) requestWithRetry(ctx context.Context, withTools bool) (llm.Response, error) {
	resp, err := a.request(ctx, withTools)
	for attempt, delay := range a.retryDelays {
		if err == nil || ctx.Err() != nil || !retryable(err, resp) {
			break
		}
		a.emit(Notice{Meta: a.stamp(), Text: fmt.Sprintf("%v; retrying in %s (%d/%d)", err, delay, attempt+1, len(a.retryDelays))})
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return resp, ctx.Err()
		}
		resp, err = a.request(ctx, withTools)
	}
	return resp, err
}
