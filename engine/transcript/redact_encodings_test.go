package transcript

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestSecretsRedactedInEveryEncoding writes records through the real
// writer in which a key full of JSON-special characters appears the ways
// it can reach a transcript: raw text, a tool's output of HTML-escaped
// JSON (\u0026, \u003c, \u003e), slash-escaped JSON (\/), and JSON inside
// a JSON string (tool arguments). The file's bytes hold none of them.
func TestSecretsRedactedInEveryEncoding(t *testing.T) {
	const key = `sk-a&b<c>d"e\f/g-0123456789`
	_, _, d := newSession(t, NewRedactor(key))
	w := writer(t, d, MainAgent)

	htmlJSON, err := json.Marshal(map[string]string{"api_key": key}) // escapes & < > as \u00XX
	if err != nil {
		t.Fatal(err)
	}
	slashJSON := bytes.ReplaceAll(htmlJSON, []byte("/"), []byte(`\/`))
	var plain bytes.Buffer
	enc := json.NewEncoder(&plain)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]string{"command": "curl -H " + key}); err != nil {
		t.Fatal(err)
	}
	appendAll(t, w, KindMessage, MainAgent,
		message{Role: "user", Content: "the key is " + key},
		message{Role: "tool", Content: "cat creds.json\n" + string(htmlJSON)},
		message{Role: "tool", Content: string(slashJSON)},
		event{Type: "tool_started", Text: strings.TrimSpace(plain.String())},
		event{Type: "tool_started", Text: `{"args":` + strings.TrimSpace(string(mustJSON(t, string(htmlJSON)))) + `}`},
	)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(d.FileOf(MainAgent))
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{"a&b", `a\u0026b`, `c\u003ed`, `b\u003cc`, `d\"e`, `e\\f`, `f\/g`, `f/g-0123`, "0123456789"} {
		if bytes.Contains(raw, []byte(part)) {
			t.Errorf("the transcript holds %q of the key:\n%s", part, raw)
		}
	}
	if n := bytes.Count(raw, []byte("[redacted]")); n < 5 {
		t.Errorf("%d [redacted] markers, want one per record:\n%s", n, raw)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
