package llm

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"unicode/utf8"
)

// content is a delta's content as providers send it: a string (OpenAI and
// most others), or a list of typed parts (Mistral's reasoning models send
// {"type":"thinking","thinking":[{"type":"text","text":…}]} and
// {"type":"text","text":…}). Thinking parts are reasoning, text parts the
// answer. A shape it does not know is skipped with a debug line rather
// than failing the turn: one odd chunk must not cost the answer.
type content struct {
	text     string
	thinking string
}

// part is one typed content part.
type part struct {
	Type     string          `json:"type"`
	Text     string          `json:"text"`
	Thinking json.RawMessage `json:"thinking"`
}

// UnmarshalJSON reads a string, null, or a list of parts; it never fails.
func (c *content) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || bytes.Equal(b, []byte("null")):
	case b[0] == '"':
		if text, ok := plainString(b); ok {
			c.text = text
		} else if err := json.Unmarshal(b, &c.text); err != nil {
			slog.Debug("skipped unreadable delta.content", "err", err)
		}
	case b[0] == '[':
		var parts []json.RawMessage
		if err := json.Unmarshal(b, &parts); err != nil {
			slog.Debug("skipped unreadable delta.content list", "err", err)
			return nil
		}
		for _, raw := range parts {
			c.addPart(raw)
		}
	default:
		slog.Debug("skipped delta.content of unknown shape", "content", firstLine(b))
	}
	return nil
}

// plainString is the text of a JSON string that needs no decoding: no
// escape, no control character, valid UTF-8. Most deltas are such a
// word or two, and encoding/json's reflection costs more than the rest
// of the chunk; the others are decoded by encoding/json.
func plainString(b []byte) (string, bool) {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return "", false
	}
	inner := b[1 : len(b)-1]
	for _, c := range inner {
		if c == '\\' || c == '"' || c < 0x20 {
			return "", false
		}
	}
	if !utf8.Valid(inner) {
		return "", false
	}
	return string(inner), true
}

// addPart folds one part in: text as answer, thinking (a string or a list
// of text parts) as reasoning; anything else is skipped.
func (c *content) addPart(raw json.RawMessage) {
	var p part
	if err := json.Unmarshal(raw, &p); err != nil {
		slog.Debug("skipped unreadable content part", "err", err)
		return
	}
	switch p.Type {
	case "text":
		c.text += p.Text
	case "thinking", "reasoning":
		var s string
		if json.Unmarshal(p.Thinking, &s) == nil {
			c.thinking += s
			return
		}
		var inner []part
		if err := json.Unmarshal(p.Thinking, &inner); err != nil {
			slog.Debug("skipped unreadable thinking part", "err", err)
			return
		}
		for _, in := range inner {
			if in.Type == "text" {
				c.thinking += in.Text
			}
		}
	default:
		slog.Debug("skipped content part of unknown type", "type", p.Type)
	}
}
