package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDecodeArgs(t *testing.T) {
	type args struct {
		Path  string `json:"path"`
		Limit int    `json:"limit"`
	}
	tests := []struct {
		name, raw string
		wantErr   string
	}{
		{"ok", `{"path":"a.go","limit":3}`, ""},
		{"empty means {}", ``, `invalid arguments for read_file: missing required field "path"`},
		{"null field", `{"path":null}`, `missing required field "path"`},
		{"malformed", `{"path":`, "invalid arguments for read_file: unexpected end of JSON input"},
		{"not an object", `["a.go"]`, "invalid arguments for read_file: "},
		{"wrong type", `{"path":"a","limit":"3"}`, "invalid arguments for read_file: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var a args
			err := decodeArgs("read_file", json.RawMessage(tc.raw), &a, "path")
			if tc.wantErr == "" {
				if err != nil || a.Path != "a.go" || a.Limit != 3 {
					t.Fatalf("decodeArgs = %+v, %v", a, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error = %v, want %q", err, tc.wantErr)
			}
		})
	}
}

func TestTitles(t *testing.T) {
	ws := newTree(t, nil)
	set := NewSet(Base(ws, Limits{}, testBox(ws))...)
	tests := []struct {
		tool, args, want string
	}{
		{"read_file", `{"path":"engine/loop.go"}`, "read_file engine/loop.go"},
		{"read_file", `{"path":"a.go","offset":12,"limit":10}`, "read_file a.go:12-21"},
		{"read_file", `{"path":"a.go","offset":40}`, "read_file a.go:40-"},
		{"read_file", `{"path":`, "read_file"},
		{"list_files", `{}`, "list_files ."},
		{"find_files", `{"pattern":"**/*.go","path":"cmd"}`, "find_files **/*.go in cmd"},
		{"grep", `{"pattern":"func main","glob":"*.go"}`, `grep "func main" *.go`},
		{"write_file", `{"path":"x.txt","content":"long"}`, "write_file x.txt"},
		{"edit_file", `{"path":"x.txt"}`, "edit_file x.txt"},
		{"run_command", "{\"command\":\"go test\\n  ./...\"}", "run_command go test ./..."},
		{"run_command", `{"command":"` + strings.Repeat("x", 200) + `"}`, "run_command " + strings.Repeat("x", titleMaxChars-len("run_command ")-1) + "…"},
		{"run_command", `nonsense`, "run_command"},
	}
	for _, tc := range tests {
		tool, _ := set.Get(tc.tool)
		if got := tool.Title(json.RawMessage(tc.args)); got != tc.want {
			t.Errorf("%s.Title(%s) = %q, want %q", tc.tool, tc.args, got, tc.want)
		}
	}
}
