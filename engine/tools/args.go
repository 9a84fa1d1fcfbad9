package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// titleMaxChars keeps a call's title on one line of a pane.
const titleMaxChars = 100

// decodeArgs unmarshals a call's JSON arguments into v after checking that
// every required field is present and not null. Models send malformed or
// incomplete arguments often enough that the error must say which tool and
// which field, so the model can correct itself.
func decodeArgs(tool string, raw json.RawMessage, v any, required ...string) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return fmt.Errorf("invalid arguments for %s: %w", tool, err)
	}
	for _, name := range required {
		if f, ok := fields[name]; !ok || string(bytes.TrimSpace(f)) == "null" {
			return fmt.Errorf("invalid arguments for %s: missing required field %q", tool, name)
		}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("invalid arguments for %s: %w", tool, err)
	}
	return nil
}

// title renders a call for people: the tool name and the non-empty parts,
// whitespace collapsed to single spaces and cut to one short line.
func title(name string, parts ...string) string {
	words := []string{name}
	for _, p := range parts {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			words = append(words, p)
		}
	}
	t := strings.Join(words, " ")
	if utf8.RuneCountInString(t) <= titleMaxChars {
		return t
	}
	return string([]rune(t)[:titleMaxChars-1]) + "…"
}
