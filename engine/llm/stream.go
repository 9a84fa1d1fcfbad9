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
// RecvRaw, and returns the assembled message.
//
// It returns an error when the stream ends without a finish_reason and
// without [DONE] (a cut connection), on in-band errors and on provider
// errors; the Response then holds the text said so far but never a tool
// call. The error is ctx.Err() when ctx was cancelled, a *ProviderError for
// failures a person should read, or a wrapped error otherwise. Telling [DONE]
// from a cut connection needs a client from NewClient; with any other client
// a stream without finish_reason is treated as cut.
func Stream(ctx context.Context, c Client, req openai.ChatCompletionRequest, h Handler) (Response, error) {
	ctx, marker := withMarker(ctx)
	req.Stream = true
	req.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	stream, err := c.CreateChatCompletionStream(ctx, req)
	if err != nil {
		return Response{}, explain(ctx, err)
	}
	defer stream.Close()
	var acc accumulator
	for {
		line, err := stream.RecvRaw()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return acc.partial(), explain(ctx, err)
		}
		if err := acc.feed(line, h); err != nil {
			return acc.partial(), err
		}
	}
	if acc.finish == "" && !marker.done.Load() {
		if ctx.Err() != nil {
			return acc.partial(), ctx.Err()
		}
		return acc.partial(), &ProviderError{
			Reason: "the reply was cut off (no finish_reason and no [DONE])",
			Err:    io.ErrUnexpectedEOF,
		}
	}
	return acc.response(), nil
}
