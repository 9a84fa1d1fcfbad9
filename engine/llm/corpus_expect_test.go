package llm_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
)

// recorded is what a recorded stream means in its own terms, worked out
// from the raw JSON of its events without any of baton's code: the text
// and reasoning the deltas add up to, the tool calls their pieces make,
// the last finish reason and usage, whether it ended with [DONE], and
// whether an in-band error stopped it.
type recorded struct {
	text, reasoning string
	calls           []*recordedCall
	finish          string
	usage           map[string]any // the last usage object, nil when none
	done            bool
	inBandErr       bool
	textBeforeErr   string
}

type recordedCall struct{ id, name, args string }

// events returns the data payloads of an SSE body in order, as the SSE
// format reads them: a leading byte order mark dropped, CRLF or LF line
// ends, the data lines of one event joined with newlines.
func events(body []byte) []string {
	var out, data []string
	flush := func() {
		if len(data) > 0 {
			out = append(out, strings.Join(data, "\n"))
			data = nil
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))))
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case line == "":
			flush()
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
	flush()
	return out
}

// meaning reads the events of one recording.
func meaning(payloads []string) (recorded, error) {
	var r recorded
	// calls by key: the index a delta names, else its place in the
	// delta's list (Moonshot sends parallel calls without index).
	byKey := map[float64]*recordedCall{}
	for _, p := range payloads {
		if strings.TrimSpace(p) == "[DONE]" {
			r.done = true
			break
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(p), &ev); err != nil {
			return r, err
		}
		if e, ok := ev["error"]; (ok && e != nil) || ev["object"] == "error" {
			r.inBandErr, r.textBeforeErr = true, r.text
			return r, nil
		}
		if u, ok := ev["usage"].(map[string]any); ok {
			r.usage = u
		}
		choices, _ := ev["choices"].([]any)
		for _, c := range choices {
			ch, _ := c.(map[string]any)
			if fr, _ := ch["finish_reason"].(string); fr == "error" {
				r.inBandErr, r.textBeforeErr = true, r.text
				return r, nil
			} else if fr != "" {
				r.finish = fr
			}
			if u, ok := ch["usage"].(map[string]any); ok && ev["usage"] == nil {
				r.usage = u // Moonshot reports usage inside the choice
			}
			delta, _ := ch["delta"].(map[string]any)
			r.addContent(delta["content"])
			if s, _ := delta["reasoning_content"].(string); s != "" {
				r.reasoning += s
			} else if s, _ := delta["reasoning"].(string); s != "" {
				r.reasoning += s
			}
			tcs, _ := delta["tool_calls"].([]any)
			for j, tc := range tcs {
				r.addCall(byKey, j, tc)
			}
		}
	}
	return r, nil
}

// addContent folds in delta.content: a string, or Mistral's typed parts
// (text is the answer, thinking the reasoning).
func (r *recorded) addContent(v any) {
	switch c := v.(type) {
	case string:
		r.text += c
	case []any:
		for _, p := range c {
			part, _ := p.(map[string]any)
			switch part["type"] {
			case "text":
				s, _ := part["text"].(string)
				r.text += s
			case "thinking":
				switch th := part["thinking"].(type) {
				case string:
					r.reasoning += th
				case []any:
					for _, in := range th {
						inner, _ := in.(map[string]any)
						if s, ok := inner["text"].(string); ok && inner["type"] == "text" {
							r.reasoning += s
						}
					}
				}
			}
		}
	}
}

// addCall folds in one tool-call piece: a new id at a key already taken
// by another id starts a new call (Mistral sends whole calls, each at
// place 0 of its own chunk).
func (r *recorded) addCall(byKey map[float64]*recordedCall, place int, v any) {
	tc, _ := v.(map[string]any)
	key := float64(place)
	if idx, ok := tc["index"].(float64); ok {
		key = idx
	}
	id, _ := tc["id"].(string)
	fn, _ := tc["function"].(map[string]any)
	name, _ := fn["name"].(string)
	args, _ := fn["arguments"].(string)
	cur := byKey[key]
	if cur == nil || (id != "" && cur.id != "" && id != cur.id) {
		cur = &recordedCall{}
		byKey[key] = cur
		r.calls = append(r.calls, cur)
	}
	if cur.id == "" {
		cur.id = id
	}
	if name != "" && name != cur.name {
		cur.name += name
	}
	cur.args += args
}
