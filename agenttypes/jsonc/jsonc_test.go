package jsonc

import (
	"encoding/json"
	"testing"
)

// TestStrip: comments and trailing commas go, text inside strings that
// looks like them stays.
func TestStrip(t *testing.T) {
	in := `{
  // a comment, with a "quote"
  "url": "https://example.com/a//b", /* block
  comment */ "glob": "src/**/*.go",
  "list": [1, 2,],
  "esc": "a \" // b",
}`
	var got map[string]any
	if err := json.Unmarshal(Strip([]byte(in)), &got); err != nil {
		t.Fatalf("%v:\n%s", err, Strip([]byte(in)))
	}
	if got["url"] != "https://example.com/a//b" || got["glob"] != "src/**/*.go" || got["esc"] != `a " // b` || len(got["list"].([]any)) != 2 {
		t.Errorf("got %v", got)
	}
}
