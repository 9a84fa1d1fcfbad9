package agenttypes

import (
	"strings"
	"testing"
)

// TestNameFallsBackToFile loads files whose name: the model could not
// write in a task call (Claude Code takes any text there): they load
// under their file's name, with a warning, instead of going missing.
func TestNameFallsBackToFile(t *testing.T) {
	for _, tt := range []struct{ file, data, want, warn string }{
		{"agent.md", "---\nname: --\ndescription: d\n---\nx\n", "agent", `2: name "--" has no letters or digits, so the agent is named "agent"`},
		{"broken/bad-name.md", "", "bad-name", `name "code reviewer (strict)" has characters other than`},
	} {
		path, data := tt.file, []byte(tt.data)
		if tt.data == "" {
			path, data = readSample(t, tt.file)
		}
		got, warns, err := ParseFile(path, data)
		if err != nil || got.Name != tt.want || len(warns) != 1 || !strings.Contains(warns[0].String(), tt.warn) {
			t.Errorf("%s: name %q warnings %v err %v, want %q and a warning %q", tt.file, got.Name, warns, err, tt.want, tt.warn)
		}
	}
	// When the file's name is no better, the file is left out, saying why.
	_, _, err := parseFile("x.md", []byte("---\nname: --\ndescription: d\n---\nx\n"), fileOptions{known: newToolSet(AllTools), name: "a b"})
	if err == nil || !strings.Contains(err.Error(), `2: skipped: name "--" has no letters or digits`) {
		t.Errorf("err %v, want the file skipped for its name", err)
	}
}
