package demo

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	openai "github.com/sashabaranov/go-openai"
)

// maxRequestBytes bounds a request body. A long session with big tool
// results stays well under it; anything larger is a mistake.
const maxRequestBytes = 32 << 20

// chunk is one chat.completion.chunk as OpenAI sends it. The types are
// baton's own rather than go-openai's so the wire shape is exactly
// OpenAI's: finish_reason null until the last chunk, no empty type fields
// on argument deltas.
type chunk struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []chunkChoice `json:"choices"`
	Usage   *usage        `json:"usage,omitempty"`
}

type chunkChoice struct {
	Index        int        `json:"index"`
	Delta        chunkDelta `json:"delta"`
	FinishReason *string    `json:"finish_reason"`
}

type chunkDelta struct {
	Role      string          `json:"role,omitempty"`
	Content   string          `json:"content,omitempty"`
	ToolCalls []toolCallDelta `json:"tool_calls,omitempty"`
}

type toolCallDelta struct {
	Index    int           `json:"index"`
	ID       string        `json:"id,omitempty"`
	Type     string        `json:"type,omitempty"`
	Function functionDelta `json:"function"`
}

type functionDelta struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// usage is the token count of one request, estimated at four characters a
// token the way the engine estimates a delegation's first request.
type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// usageFor estimates the usage of a request of requestBytes answered by out.
func usageFor(requestBytes int, out reply) usage {
	size := len(out.text)
	for _, c := range out.calls {
		size += len(c.name) + len(c.args)
	}
	u := usage{PromptTokens: max(1, requestBytes/4), CompletionTokens: max(1, size/4)}
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	return u
}

// decodeRequest reads a chat request and returns it with its raw size.
func decodeRequest(w http.ResponseWriter, r *http.Request) (*openai.ChatCompletionRequest, []byte, error) {
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBytes))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, nil, fmt.Errorf("read request: body over %d bytes", tooBig.Limit)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read request: %w", err)
	}
	var req openai.ChatCompletionRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, nil, fmt.Errorf("decode request: %w", err)
	}
	if len(req.Messages) == 0 {
		return nil, nil, errors.New("decode request: messages is empty")
	}
	return &req, raw, nil
}

// writeError answers with status and an OpenAI-shaped error body.
func writeError(w http.ResponseWriter, status int, message string) {
	body, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": message, "type": "invalid_request_error", "code": status,
	}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
