package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// corpusDir holds streams recorded from real providers by other projects,
// kept byte for byte; SOURCES names the repository, path and commit of
// each. A .sse file is a response body as it came over the wire; a .jsonl
// file is one chunk per line, as the project that recorded it keeps them.
const corpusDir = "testdata/streams"

// corpusBodies returns the bodies to serve for one recording: an .sse file
// as it is and with CRLF and a BOM; a .jsonl file converted the way an OpenAI-compatible server
// frames chunks ("data: <chunk>" and a blank line), once ending with
// "data: [DONE]" and once without it, since providers do both.
func corpusBodies(t *testing.T, path string) map[string][]byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".sse") {
		// The same wire with CRLF line ends and a leading byte order
		// mark, both of which the SSE format allows a server to send.
		crlf := append([]byte("\xef\xbb\xbf"), bytes.ReplaceAll(raw, []byte("\n"), []byte("\r\n"))...)
		return map[string][]byte{"wire": raw, "crlf-bom": crlf}
	}
	var sse bytes.Buffer
	for line := range strings.Lines(string(raw)) {
		if line = strings.TrimRight(line, "\r\n"); strings.TrimSpace(line) != "" {
			sse.WriteString("data: " + line + "\n\n")
		}
	}
	bare := bytes.Clone(sse.Bytes())
	sse.WriteString("data: [DONE]\n\n")
	return map[string][]byte{"with-done": sse.Bytes(), "without-done": bare}
}

// TestRecordedStreams serves every recorded stream to the real go-openai
// client and baton's Stream, and checks the reply against what the
// recording itself says.
func TestRecordedStreams(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(corpusDir, "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	sources, err := os.ReadFile(filepath.Join(corpusDir, "SOURCES"))
	if err != nil {
		t.Fatal(err)
	}
	var runs, passed int
	for _, path := range paths {
		name, _ := filepath.Rel(corpusDir, path)
		if !bytes.Contains(sources, []byte(filepath.ToSlash(name)+"\t")) {
			t.Errorf("%s has no line in SOURCES", name)
		}
		for variant, body := range corpusBodies(t, path) {
			runs++
			if t.Run(name+"/"+variant, func(t *testing.T) { checkRecording(t, body) }) {
				passed++
			}
		}
	}
	if len(paths) == 0 {
		t.Fatal("no recorded streams found")
	}
	t.Logf("%d of %d recorded streams read right (%d recordings)", passed, runs, len(paths))
}

// checkRecording serves body and compares Stream's answer with the
// recording's own meaning.
func checkRecording(t *testing.T, body []byte) {
	want, err := meaning(events(body))
	if err != nil {
		t.Fatalf("recording has an unreadable event: %v", err)
	}
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		w.Body(200, "text/event-stream", string(body))
	})
	req := openai.ChatCompletionRequest{
		Model:    "recorded",
		Messages: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: "hi"}},
	}
	var streamed strings.Builder
	resp, err := llm.Stream(context.Background(), srv.Client(), req, llm.Handler{OnText: func(s string) { streamed.WriteString(s) }})
	var pe *llm.ProviderError
	switch {
	case want.inBandErr:
		if !errors.As(err, &pe) {
			t.Fatalf("in-band error: got %v, want a *ProviderError", err)
		}
		if resp.Content != want.textBeforeErr || len(resp.ToolCalls) != 0 {
			t.Errorf("in-band error kept %q and %d calls, want %q and none", resp.Content, len(resp.ToolCalls), want.textBeforeErr)
		}
		return
	case want.finish == "" && !want.done:
		if !errors.As(err, &pe) || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("stream without finish_reason or [DONE]: got %v, want a cut-off *ProviderError", err)
		}
		if resp.Content != want.text || len(resp.ToolCalls) != 0 {
			t.Errorf("cut stream kept %q and %d calls, want %q and none", resp.Content, len(resp.ToolCalls), want.text)
		}
		return
	case err != nil:
		t.Fatalf("Stream: %v", err)
	}
	if resp.Content != want.text || streamed.String() != want.text {
		t.Errorf("text = %q (streamed %q), want %q", resp.Content, streamed.String(), want.text)
	}
	if resp.Reasoning != want.reasoning {
		t.Errorf("reasoning = %q, want %q", resp.Reasoning, want.reasoning)
	}
	if resp.FinishReason != want.finish {
		t.Errorf("finish = %q, want %q", resp.FinishReason, want.finish)
	}
	checkUsage(t, resp, want.usage)
	checkRecordedCalls(t, resp.ToolCalls, want.calls)
}

// checkUsage compares the token counts with the recording's last usage.
func checkUsage(t *testing.T, resp llm.Response, usage map[string]any) {
	t.Helper()
	if usage == nil {
		if resp.HasUsage {
			t.Errorf("usage %+v reported, the recording has none", resp.Usage)
		}
		return
	}
	prompt, _ := usage["prompt_tokens"].(float64)
	completion, _ := usage["completion_tokens"].(float64)
	if !resp.HasUsage || resp.Usage.PromptTokens != int(prompt) || resp.Usage.CompletionTokens != int(completion) {
		t.Errorf("usage = %+v (reported %v), want prompt %v completion %v", resp.Usage, resp.HasUsage, prompt, completion)
	}
}

// checkRecordedCalls compares tool calls by name, id and JSON-equal arguments.
func checkRecordedCalls(t *testing.T, got []openai.ToolCall, want []*recordedCall) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d tool calls %+v, want %d", len(got), got, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Function.Name != w.name || (w.id != "" && g.ID != w.id) {
			t.Errorf("call %d = %s %q, want %s %q", i, g.ID, g.Function.Name, w.id, w.name)
		}
		args := w.args
		if strings.TrimSpace(args) == "" {
			args = "{}"
		}
		var gv, wv any
		if err := json.Unmarshal([]byte(args), &wv); err != nil {
			t.Fatalf("call %d: the recording's arguments %q are not JSON: %v", i, args, err)
		}
		if err := json.Unmarshal([]byte(g.Function.Arguments), &gv); err != nil || !jsonEqual(gv, wv) {
			t.Errorf("call %d arguments = %s, want %s", i, g.Function.Arguments, args)
		}
	}
}

// jsonEqual compares two decoded JSON values.
func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}
