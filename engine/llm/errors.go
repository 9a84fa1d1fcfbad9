package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"syscall"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// ProviderError is a failed request explained for people: Reason is one line
// saying what went wrong and what to check, Message is the provider's own
// words, which often name the real cause (a context limit, a bad parameter).
type ProviderError struct {
	Status  int    // HTTP status, or the code of an in-band error; 0 when unknown
	Reason  string // e.g. "authentication failed (401): check OPENAI_API_KEY"
	Message string // the provider's message, possibly empty
	Err     error  // the underlying error, for errors.As
	// RetryAfter is the wait the endpoint asked for with a Retry-After
	// header; 0 when it sent none.
	RetryAfter time.Duration
	// Transient says the connection failed or the reply broke off, with
	// nothing wrong in the request: a reset or refused connection, a cut
	// between or inside events. Sent again, it may well succeed.
	Transient bool
}

// Error returns "<reason>: <provider message>". Connection failures have no
// provider message, so their root cause ("connection refused") stands in.
func (e *ProviderError) Error() string {
	detail := e.Message
	if detail == "" && e.Status == 0 && e.Err != nil {
		detail = rootCause(e.Err).Error()
	}
	if detail == "" {
		return e.Reason
	}
	return e.Reason + ": " + detail
}

// Unwrap returns the underlying error.
func (e *ProviderError) Unwrap() error { return e.Err }

// IsModelNotFound reports whether err says the model does not exist, by
// status 404 or by the provider's wording, so callers can fall back to
// another model.
func IsModelNotFound(err error) bool {
	pe, ok := asProviderError(err)
	if !ok {
		return false
	}
	if pe.Status == 404 {
		return true
	}
	m := strings.ToLower(pe.Message)
	if !strings.Contains(m, "model") {
		return false
	}
	for _, s := range []string{"not found", "does not exist", "no such model", "unknown model", "invalid model", "not a valid model"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// explain turns an error from go-openai or the network into what Stream
// returns: the context's own error when the caller cancelled, so they can
// tell cancellation apart, otherwise a *ProviderError where one applies.
func explain(ctx context.Context, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	var te *TimeoutError
	if errors.As(err, &te) {
		return te
	}
	if pe, ok := asProviderError(err); ok {
		return pe
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return fromURLError(ue)
	}
	var oe *net.OpError
	if errors.As(err, &oe) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &ProviderError{Reason: "connection lost during the reply", Err: err, Transient: true}
	}
	return fmt.Errorf("stream completion: %w", err)
}

// asProviderError finds a *ProviderError in err or builds one from
// go-openai's error types.
func asProviderError(err error) (*ProviderError, bool) {
	var pe *ProviderError
	if errors.As(err, &pe) {
		return pe, true
	}
	// A RequestError may wrap an empty APIError when go-openai could not
	// read the body, so it is checked first and its body read here.
	var re *openai.RequestError
	if errors.As(err, &re) {
		return &ProviderError{Status: re.HTTPStatusCode, Reason: statusReason(re.HTTPStatusCode), Message: bodyMessage(re.Body), Err: err}, true
	}
	var ae *openai.APIError
	if errors.As(err, &ae) {
		status := ae.HTTPStatusCode
		if status == 0 {
			status = codeStatus(ae.Code)
			return &ProviderError{Status: status, Reason: inBandReason(status), Message: ae.Message, Err: err}, true
		}
		return &ProviderError{Status: status, Reason: statusReason(status), Message: ae.Message, Err: err}, true
	}
	return nil, false
}

// statusReason is the one-line explanation of an HTTP status.
func statusReason(code int) string {
	switch {
	case code == 401:
		return "authentication failed (401): check OPENAI_API_KEY"
	case code == 402:
		return "payment required (402): check the account's credit"
	case code == 403:
		return "access denied (403): the key may not be allowed to use this model"
	case code == 404:
		return "model not found (404): check the model name and OPENAI_BASE_URL"
	case code == 408:
		return "request timed out (408)"
	case code == 413:
		return "request too large (413): the conversation may exceed the model's limit"
	case code == 429:
		return "rate limited (429): wait and retry, or check the quota"
	case code >= 500:
		return fmt.Sprintf("provider error (%d)", code)
	case code >= 400:
		return fmt.Sprintf("request rejected (%d)", code)
	}
	return fmt.Sprintf("unexpected response (%d)", code)
}

// inBandReason explains an error sent inside a stream that had begun well.
func inBandReason(status int) string {
	if status >= 400 {
		return statusReason(status) + " during the reply"
	}
	return "provider error during the reply"
}

// fromURLError explains a request that never got an HTTP response, naming
// the base URL the person configured rather than the endpoint path.
func fromURLError(ue *url.Error) *ProviderError {
	base := strings.TrimSuffix(ue.URL, "/chat/completions")
	var oe *net.OpError
	var de *net.DNSError
	switch {
	case ue.Timeout():
		return &ProviderError{Reason: "request to " + base + " timed out", Err: ue}
	case errors.As(ue, &de), errors.As(ue, &oe) && oe.Op == "dial":
		return &ProviderError{Reason: "cannot connect to " + base, Err: ue, Transient: droppedConnection(ue)}
	}
	return &ProviderError{Reason: "request to " + base + " failed", Err: ue, Transient: droppedConnection(ue)}
}

// droppedConnection reports whether err is a connection the endpoint
// refused, reset or closed before it replied: what a busy server with a
// short accept queue does, and what the next attempt usually gets past.
// A reset that comes while the request is still being written shows as
// net.ErrClosed: the transport closed the connection under the writer.
func droppedConnection(err error) bool {
	for _, e := range []error{syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.ECONNABORTED, syscall.EPIPE, io.EOF, io.ErrUnexpectedEOF, net.ErrClosed} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// rootCause follows single-error wrapping to the innermost error, which for
// network failures is the short text people recognise.
func rootCause(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}
