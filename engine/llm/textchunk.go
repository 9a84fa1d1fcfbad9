package llm

import "bytes"

// scanTextChunk reads, by hand, the line nearly every streamed chunk is: a
// choice or two whose delta carries text or reasoning, a finish reason,
// and values baton does not read (id, model, created …). A general
// decoder runs far more code per line than the line has bytes, and a
// paced stream decodes each line in a wake-up of its own, with cold
// caches. Anything else it meets (a tool call, usage, an error, content
// parts, an escape it would have to judge, invalid UTF-8, a key that differs from a field's name only in
// case) makes it report false, and decodeChunk decodes the line in full:
// what it accepts it reads as encoding/json does.
func scanTextChunk(line []byte, ch *chunk) bool {
	s := textScanner{b: line}
	if !s.object(func(key []byte) bool { return s.topField(key, ch) }) {
		return false
	}
	s.space()
	return s.i == len(s.b)
}

// chunkObject is what every chunk's "object" says.
const chunkObject = "chat.completion.chunk"

// Field names, as the chunk's types spell them: a key that folds to one
// of them but is spelled otherwise is left to the full decoder, which
// matches keys regardless of case.
var (
	topFields    = []string{"choices", "object", "usage", "message", "code", "error"}
	choiceFields = []string{"delta", "finish_reason", "usage"}
	deltaFields  = []string{"content", "reasoning_content", "reasoning", "tool_calls"}
)

// topField reads one key of the line's object.
func (s *textScanner) topField(key []byte, ch *chunk) bool {
	switch string(key) {
	case "choices":
		if s.choices {
			return false
		}
		s.choices = true
		return s.readChoices(ch)
	case "object":
		if s.literal(`"chat.completion.chunk"`) {
			ch.Object = chunkObject // every line says so: no copy each time
			return true
		}
		return s.optString(&ch.Object)
	case "usage":
		return s.null()
	case "message", "code", "error":
		return false
	}
	return !folds(key, topFields) && s.skip(0)
}

// readChoices reads the list of choices into ch's room.
func (s *textScanner) readChoices(ch *chunk) bool {
	if s.peek() == 'n' {
		ch.Choices = nil
		return s.null()
	}
	if !s.take('[') {
		return false
	}
	ch.Choices = ch.Choices[:0]
	if s.take(']') {
		if ch.Choices == nil {
			ch.Choices = []choice{}
		}
		return true
	}
	for {
		ch.Choices = append(ch.Choices, choice{})
		c := &ch.Choices[len(ch.Choices)-1]
		if !s.object(func(key []byte) bool { return s.choiceField(key, c) }) {
			return false
		}
		if !s.take(',') {
			return s.take(']')
		}
	}
}

// choiceField reads one key of a choice.
func (s *textScanner) choiceField(key []byte, c *choice) bool {
	switch string(key) {
	case "delta":
		return s.object(func(key []byte) bool { return s.deltaField(key, &c.Delta) })
	case "finish_reason":
		return s.optString(&c.FinishReason)
	case "usage":
		return s.null()
	}
	return !folds(key, choiceFields) && s.skip(0)
}

// deltaField reads one key of a delta.
func (s *textScanner) deltaField(key []byte, d *delta) bool {
	switch string(key) {
	case "content":
		return s.optString(&d.Content.text)
	case "reasoning_content":
		return s.optString(&d.ReasoningContent)
	case "reasoning":
		return s.optString(&d.Reasoning)
	case "tool_calls":
		return s.null()
	}
	return !folds(key, deltaFields) && s.skip(0)
}

// folds reports whether key is one of names in another case.
func folds(key []byte, names []string) bool {
	for _, n := range names {
		if bytes.EqualFold(key, []byte(n)) {
			return true
		}
	}
	return false
}
