package llm_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

func TestProviderErrors(t *testing.T) {
	cases := []struct {
		name     string
		status   int
		body     string
		reason   string
		message  string
		notFound bool
	}{
		{"401 bad key", 401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`,
			"authentication failed (401): check OPENAI_API_KEY", "Incorrect API key provided", false},
		{"403 no access", 403, `{"error":{"message":"Project does not have access to model"}}`,
			"access denied (403): the key may not be allowed to use this model", "Project does not have access to model", false},
		{"404 model not found (OpenAI)", 404, `{"error":{"message":"The model 'gpt-9' does not exist","code":"model_not_found"}}`,
			"model not found (404): check the model name and OPENAI_BASE_URL", "The model 'gpt-9' does not exist", true},
		{"404 model not found (Ollama, error as a string)", 404, `{"error":"model \"llama9\" not found, try pulling it first"}`,
			"model not found (404): check the model name and OPENAI_BASE_URL", `model "llama9" not found, try pulling it first`, true},
		{"400 invalid model (OpenRouter)", 400, `{"error":{"message":"gpt-9 is not a valid model ID","code":400}}`,
			"request rejected (400)", "gpt-9 is not a valid model ID", true},
		{"429 rate limited", 429, `{"error":{"message":"Rate limit reached for requests","type":"requests"}}`,
			"rate limited (429): wait and retry, or check the quota", "Rate limit reached for requests", false},
		{"500 with a plain-text body", 500, "text/plain; charset=utf-8|upstream exploded\nstack trace follows",
			"provider error (500)", `text/plain body: "upstream exploded"`, false},
		{"503 with an empty body", 503, "", "provider error (503)", "", false},
		{"502 proxy HTML page", 502, "text/html|<html>\r\n<head><title>502 Bad Gateway</title></head></html>",
			"provider error (502)", `text/html body: "<html>"`, false},
		{"422 with a FastAPI detail", 422, `{"detail":"messages: field required"}`,
			"request rejected (422)", "messages: field required", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
				// "type|body" sends a body that is not JSON under its own type.
				if ctype, body, ok := strings.Cut(c.body, "|"); ok {
					w.Body(c.status, ctype, body)
					return
				}
				w.Error(c.status, c.body)
			})
			_, err := llm.Stream(context.Background(), srv.Client(), openai.ChatCompletionRequest{Model: "m"}, llm.Handler{})
			var pe *llm.ProviderError
			if !errors.As(err, &pe) {
				t.Fatalf("error = %#v, want a *llm.ProviderError", err)
			}
			if pe.Status != c.status || pe.Reason != c.reason || pe.Message != c.message {
				t.Errorf("got status %d reason %q message %q, want %d %q %q", pe.Status, pe.Reason, pe.Message, c.status, c.reason, c.message)
			}
			want := c.reason
			if c.message != "" {
				want += ": " + c.message
			}
			if err.Error() != want {
				t.Errorf("Error() = %q, want %q", err.Error(), want)
			}
			if llm.IsModelNotFound(err) != c.notFound {
				t.Errorf("IsModelNotFound = %v, want %v", !c.notFound, c.notFound)
			}
		})
	}
}

func TestProviderErrorConnectionRefused(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	base := closed.URL + "/v1"
	closed.Close()
	client := llm.NewClient(llm.Config{APIKey: "k", BaseURL: base})
	_, err := llm.Stream(context.Background(), client, openai.ChatCompletionRequest{Model: "m"}, llm.Handler{})
	var pe *llm.ProviderError
	if !errors.As(err, &pe) {
		t.Fatalf("error = %#v, want a *llm.ProviderError", err)
	}
	if pe.Reason != "cannot connect to "+base {
		t.Errorf("reason = %q, want it to name %s", pe.Reason, base)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) || !strings.HasSuffix(err.Error(), ": connection refused") {
		t.Errorf("error %q does not say connection refused", err)
	}
	if llm.IsModelNotFound(err) {
		t.Error("a refused connection is not a missing model")
	}
}

func TestIsModelNotFound(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"plain error", errors.New("model not found"), false},
		{"cancelled", context.Canceled, false},
		{"rate limited", &llm.ProviderError{Status: 429, Message: "model overloaded"}, false},
		{"raw go-openai 404", &openai.APIError{HTTPStatusCode: 404, Message: "x"}, true},
		{"wrapped wording, no status", errors.Join(errors.New("run"), &llm.ProviderError{Message: "Unknown model: foo"}), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := llm.IsModelNotFound(c.err); got != c.want {
				t.Errorf("IsModelNotFound(%v) = %v, want %v", c.err, got, c.want)
			}
		})
	}
}

func TestProviderErrorUnwrapsToGoOpenAI(t *testing.T) {
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		w.Error(401, `{"error":{"message":"bad key"}}`)
	})
	_, err := llm.Stream(context.Background(), srv.Client(), openai.ChatCompletionRequest{Model: "m"}, llm.Handler{})
	var ae *openai.APIError
	if !errors.As(err, &ae) || ae.HTTPStatusCode != 401 {
		t.Fatalf("error %#v does not unwrap to the 401 *openai.APIError", err)
	}
}
