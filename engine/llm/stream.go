package llm

import (
	"context"
	"errors"
	"io"

	openai "github.com/sashabaranov/go-openai"
)

// Handler receives deltas as they stream, so the UI can show text before the
// reply ends; nil funcs are skipped.
type Handler struct {
	OnText      func(string)
	OnReasoning func(string)
	// OnToolDelta is called for each chunk carrying tool-call pieces, so
	// a caller can flush text it holds back while arguments stream.
	OnToolDelta func()
	// OnToolBegin is called once for each tool call, with its name, as
	// soon as the name has come: before its arguments, so a caller can
	// ready what the call will need (a sub-agent's process) while they
	// stream. When it returns true, the rest of the reply is read as it
	// comes, no longer gathered (see Gather): what the call starts waits
	// on the reply's end.
	OnToolBegin func(name string) (hurry bool)
	// MaxBytes caps the reply (text, reasoning and tool calls together);
	// 0 means DefaultReplyMaxBytes, and MaxReplyBytes is the most allowed.
	MaxBytes int
	// Gather lets a fast stream gather between reads: while chunks come
	// more often than a window, it is read once per window, so a paced
	// reply costs a wake-up per window instead of one per chunk, at the
	// price of a delay of at most a window (see gatheringBody).
	Gather Gather
	// OnWait is called whenever everything that has arrived has been
	// handed on and the stream is about to wait for more: the moment to
	// pass on text held back to send in one piece.
	OnWait func()
}

// Response is one assembled assistant message.
type Response struct {
	Content string
	// Reasoning is the model's reasoning_content (or OpenRouter's reasoning);
	// some providers require it sent back on follow-up requests.
	Reasoning string
	// ToolCalls are complete: Index nil, a non-empty ID (generated
	// "call_<random>" when the provider sent none), Type "function", and
	// Arguments "{}" when empty. They are returned whatever FinishReason
	// says: some providers finish tool calls with "stop".
	ToolCalls    []openai.ToolCall
	FinishReason string
	Usage        openai.Usage
	HasUsage     bool // the provider reported usage
}

// Stream sends req with Stream=true and usage included, reads raw lines with
// RecvRaw, and returns the assembled message. The reply is bounded: in
// time by the client's Timeouts (a *TimeoutError), in size by h.MaxBytes
// (a *ReplyTooLargeError with the text up to the cap).
//
// It returns an error when the stream ends without a finish_reason and
// without [DONE] (a cut connection), on in-band errors and on provider
// errors; the Response then holds the text said so far but never a tool
// call. The error is ctx.Err() when ctx was cancelled, a *ProviderError for
// failures a person should read, or a wrapped error otherwise. Telling [DONE]
// from a cut connection needs a client from NewClient; with any other client
// a stream without finish_reason is treated as cut.
func Stream(ctx context.Context, c Client, req openai.ChatCompletionRequest, h Handler) (Response, error) {
	limit := replyLimit(h.MaxBytes)
	ctx, marker := withMarker(ctx, limit+lineOverhead)
	marker.gather, marker.onWait = h.Gather, h.OnWait
	var acc accumulator
	// feedErr is why feeding a line stopped the stream: an in-band error
	// or the reply cap. With a client from NewClient the transport feeds
	// each data line from inside the body's Read, in the one pass that
	// reads it, and the error comes back out of RecvRaw; with any other
	// client RecvRaw returns the lines and they are fed here.
	var feedErr error
	marker.deliver = func(line []byte) error {
		before, finished := acc.size(), acc.finish != ""
		if err := acc.feed(line, h); err != nil {
			feedErr = err
			return err
		}
		marker.hurried = acc.hurried
		switch size := acc.size(); {
		case size > limit:
			feedErr = &ReplyTooLargeError{Limit: limit}
			return feedErr
		case !finished && acc.finish != "":
			marker.finished()
		case size > before:
			// Only a growing reply is progress: keep-alives, blank
			// lines and empty events can be sent forever.
			marker.progress()
		}
		return nil
	}
	req.Stream = true
	req.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	stream, err := c.CreateChatCompletionStream(ctx, req)
	if err != nil {
		return Response{}, marker.annotate(explain(ctx, err))
	}
	defer stream.Close()
	for {
		line, err := stream.RecvRaw()
		if err == nil {
			// Only a client from NewClient hands lines over inside the
			// body's reads; with any other client each line comes here,
			// and what it said is passed on before the next wait.
			if err = marker.deliver(line); err == nil && h.OnWait != nil {
				h.OnWait()
			}
		}
		var tooLarge *ReplyTooLargeError
		switch {
		case feedErr != nil && errors.As(feedErr, &tooLarge):
			return capped(acc.partial(), limit), feedErr
		case feedErr != nil:
			return acc.partial(), feedErr
		case errors.Is(err, io.EOF) || (acc.finish != "" && isTimeout(err)):
			// A server that sent its finish but neither [DONE] nor EOF
			// has said all it will. The timeout is the idle one, or,
			// on a machine too busy to read the reply before the
			// first-byte limit ran out, the first-byte one.
			return finish(ctx, &acc, marker)
		case err != nil:
			return acc.partial(), marker.annotate(explain(ctx, err))
		}
	}
}

// finish returns the reply of a stream that ended, or why it was cut.
func finish(ctx context.Context, acc *accumulator, marker *streamMarker) (Response, error) {
	if acc.finish == "" && !marker.done.Load() {
		if ctx.Err() != nil {
			return acc.partial(), ctx.Err()
		}
		if !marker.sawData && marker.firstLine != "" {
			return acc.partial(), marker.notAStream()
		}
		return acc.partial(), &ProviderError{
			Reason:    "the reply was cut off (no finish_reason and no [DONE])",
			Err:       io.ErrUnexpectedEOF,
			Transient: true,
		}
	}
	return acc.response(), nil
}

// isTimeout reports whether err is one of the watchdog's timeouts.
func isTimeout(err error) bool {
	var te *TimeoutError
	return errors.As(err, &te)
}
