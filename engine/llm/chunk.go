package llm

import (
	"bytes"
	"encoding/json"
	fastjson "github.com/segmentio/encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"
)

// chunk is one streamed event as providers really send it. go-openai's typed
// chunk cannot say whether a tool-call index was absent and drops every
// error field, so Stream decodes raw lines into this instead.
type chunk struct {
	Object  string          `json:"object"`
	Message string          `json:"message"` // top-level {"object":"error"} shape
	Code    json.RawMessage `json:"code"`
	Error   json.RawMessage `json:"error"`
	Choices []choice        `json:"choices"`
	Usage   *openai.Usage   `json:"usage"`
}

type choice struct {
	Delta        delta  `json:"delta"`
	FinishReason string `json:"finish_reason"`
	// Usage is where Moonshot's Kimi API reports usage: inside the
	// finishing choice rather than beside the choices.
	Usage *openai.Usage `json:"usage"`
}

type delta struct {
	Content          content     `json:"content"`
	ReasoningContent string      `json:"reasoning_content"`
	Reasoning        string      `json:"reasoning"` // OpenRouter's name for it
	ToolCalls        []toolDelta `json:"tool_calls"`
}

type toolDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// reset empties c for the next line, keeping the room of its list of
// choices. The decoder fills the choices a line has in place, and leaves
// a field the line does not name as it finds it, so every choice the room
// holds is zeroed: a line's choice never shows what an earlier line said.
func (c *chunk) reset() {
	room := c.Choices[:cap(c.Choices)]
	clear(room)
	*c = chunk{Choices: room[:0]}
}

// decodeChunk decodes one data line. The usual text chunk is read by
// hand (scanTextChunk); for the rest, segmentio's decoder reads a chunk
// about four times faster than encoding/json, and decoding is most of
// what each streamed chunk costs; encoding/json stays the judge: a line
// the fast decoder refuses, or that makes it panic, is decoded again by
// encoding/json, so what is accepted, and every error, are as before.
func decodeChunk(line []byte, ch *chunk) error {
	if scanTextChunk(line, ch) {
		return nil
	}
	ch.reset() // what the scan filled in before it gave up
	if fastDecode(line, ch) {
		return nil
	}
	*ch = chunk{}
	return json.Unmarshal(line, ch)
}

// fastDecode decodes line with segmentio's decoder, reporting whether it
// did; a panic in it is a line it could not read. A line with a key past
// ASCII is left to encoding/json: segmentio's decoder folds such a key
// otherwise ("finiſh_reason" names no field to it, finish_reason to
// encoding/json).
func fastDecode(line []byte, ch *chunk) (ok bool) {
	if !asciiKeys(line) {
		return false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return fastjson.Unmarshal(line, ch) == nil
}

// asciiKeys reports whether every key of the JSON in line is ASCII
// written without escapes; a line that is not JSON is reported either
// way, for the decoder to refuse.
func asciiKeys(line []byte) bool {
	for i := 0; i < len(line); i++ {
		if line[i] != '"' {
			continue
		}
		plain := true
		for i++; i < len(line) && line[i] != '"'; i++ {
			switch c := line[i]; {
			case c == '\\':
				plain = false
				i++
			case c >= utf8.RuneSelf:
				plain = false
			}
		}
		if !plain {
			j := i + 1
			for j < len(line) && (line[j] == ' ' || line[j] == '\t' || line[j] == '\n' || line[j] == '\r') {
				j++
			}
			if j < len(line) && line[j] == ':' {
				return false
			}
		}
	}
	return true
}

// inBandError returns the error a chunk carries in any of the three shapes
// providers use, or nil.
func (c *chunk) inBandError() *ProviderError {
	if len(c.Error) > 0 && !bytes.Equal(c.Error, []byte("null")) {
		msg, status := errorText(c.Error)
		return &ProviderError{Status: status, Reason: inBandReason(status), Message: msg}
	}
	if c.Object == "error" {
		status := rawStatus(c.Code)
		return &ProviderError{Status: status, Reason: inBandReason(status), Message: c.Message}
	}
	for _, ch := range c.Choices {
		if ch.FinishReason == "error" {
			return &ProviderError{Reason: inBandReason(0)}
		}
	}
	return nil
}

// errorText reads an "error" value that may be a string, an object with a
// message and code, or anything else, which is then quoted whole so it is
// never lost.
func errorText(raw json.RawMessage) (string, int) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, 0
	}
	var obj struct {
		Message json.RawMessage `json:"message"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(raw, &obj) == nil && json.Unmarshal(obj.Message, &s) == nil && s != "" {
		return s, rawStatus(obj.Code)
	}
	return firstLine(raw), 0
}

// rawStatus reads an error code that is an HTTP status, as a number or a
// numeric string; other codes ("server_error") give 0.
func rawStatus(raw json.RawMessage) int {
	var n int
	if json.Unmarshal(raw, &n) != nil {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return 0
		}
		n, _ = strconv.Atoi(s)
	}
	return codeStatus(n)
}

// codeStatus keeps a code only when it is an HTTP error status.
func codeStatus(code any) int {
	switch c := code.(type) {
	case int:
		if c >= 400 && c <= 599 {
			return c
		}
	case string:
		n, err := strconv.Atoi(c)
		if err == nil {
			return codeStatus(n)
		}
	}
	return 0
}

// bodyMessage extracts the provider's message from an error response body:
// {"error": ...}, {"message": ...}, {"detail": "..."}, or plain text. An
// HTML page (a proxy's error page) says nothing the status does not.
func bodyMessage(body []byte) string {
	if bytes.HasPrefix(bytes.TrimSpace(body), []byte("<")) {
		return ""
	}
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message json.RawMessage `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &v) == nil {
		for _, raw := range []json.RawMessage{v.Error, v.Message, v.Detail} {
			if len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
				msg, _ := errorText(raw)
				return msg
			}
		}
	}
	return firstLine(body)
}

// maxMessage bounds a quoted body so one line stays one line.
const maxMessage = 300

// firstLine returns the first non-empty line of b, cut to maxMessage bytes
// on a rune boundary.
func firstLine(b []byte) string {
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if len(line) > maxMessage {
			cut := maxMessage
			for cut > 0 && !utf8.RuneStart(line[cut]) {
				cut--
			}
			line = line[:cut] + "…"
		}
		return line
	}
	return ""
}

// warmChunk is a chunk of every part a stream's decoder meets: text, a
// tool call, a finish and usage.
const warmChunk = `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"a","reasoning_content":"b","tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"d","arguments":"{}"}}]},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`

// Warm decodes one chunk of every part, so that a process about to
// stream (a spare child process waiting for its spec) has its decoders
// built before its first reply comes: their first use costs more than
// a whole chunk.
func Warm() {
	var ch chunk
	_ = decodeChunk([]byte(warmChunk), &ch)
}
