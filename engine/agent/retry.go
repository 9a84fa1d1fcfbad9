package agent

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
)

// RequestPolicy is how an agent sends model requests: the pauses before
// its retries, the longest Retry-After it waits for, the cap on one
// reply and how a fast stream gathers between reads.
type RequestPolicy struct {
	RetryDelays   []time.Duration `json:"retry_delays"`
	RetryAfterMax time.Duration   `json:"retry_after_max"`
	ReplyMaxBytes int             `json:"reply_max_bytes"`
	Gather        llm.Gather      `json:"gather"`
}

// retryWait says whether a failed request is worth sending again and
// when: the provider was busy or broken for a moment, went silent, or
// dropped the connection, and nothing was streamed yet (a retry would
// make the model say it twice).
// It returns the wait and a short reason for the status line; fatal is
// set instead when the endpoint asks for a longer wait than allowed.
func (p RequestPolicy) retryWait(err error, resp llm.Response, attempt int) (wait time.Duration, reason string, fatal error) {
	if resp.Content != "" || resp.Reasoning != "" || attempt >= len(p.RetryDelays) {
		return 0, "", err
	}
	pause := jitter(p.RetryDelays[attempt])
	var te *llm.TimeoutError
	if errors.As(err, &te) {
		return pause, te.Error(), nil
	}
	var pe *llm.ProviderError
	switch {
	case !errors.As(err, &pe):
		return 0, "", err
	case pe.Transient:
		// A refused or reset connection, or a reply cut before any of
		// it was shown: a busy server's short accept queue, a proxy
		// dropping a stream.
		return pause, pe.Error(), nil
	case pe.Status != 429 && pe.Status < 500:
		return 0, "", err
	}
	reason = pe.Reason
	if pe.Status == 429 {
		reason = "rate limited"
	}
	if pe.RetryAfter <= 0 {
		return pause, reason, nil
	}
	if pe.RetryAfter > p.RetryAfterMax {
		return 0, "", fmt.Errorf("%w; the endpoint asks to retry after %s (Retry-After), longer than retry_after_max_s (%s)",
			err, llm.FormatSeconds(pe.RetryAfter.Round(time.Second)), llm.FormatSeconds(p.RetryAfterMax))
	}
	return pe.RetryAfter, reason + ", Retry-After", nil
}

// jitter spreads a pause over half to one and a half times itself, so
// children that failed together do not all retry at the same instant.
func jitter(d time.Duration) time.Duration {
	if d <= 1 {
		return d
	}
	return d/2 + rand.N(d)
}

// requestWithRetry sends a request, retrying passing failures after a
// pause that ctx cuts short; each retry is announced with the time it
// will be sent, so the status line can count down.
func (a *Agent) requestWithRetry(ctx context.Context, withTools bool) (llm.Response, error) {
	resp, err := a.request(ctx, withTools)
	for attempt := 0; err != nil && ctx.Err() == nil; attempt++ {
		wait, reason, fatal := a.cfg.Requests.retryWait(err, resp, attempt)
		if fatal != nil {
			if attempt > 0 {
				fatal = fmt.Errorf("%w (after %d retries)", fatal, attempt)
			}
			return resp, fatal
		}
		a.Emit(event.Retrying{Meta: a.Stamp(), Attempt: attempt + 1, Attempts: len(a.cfg.Requests.RetryDelays), At: time.Now().Add(wait), Reason: reason})
		timer := time.NewTimer(wait)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return resp, ctx.Err()
		}
		resp, err = a.request(ctx, withTools)
	}
	return resp, err
}
