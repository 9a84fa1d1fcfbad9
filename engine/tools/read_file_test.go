package tools

import (
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	ws := newTree(t, map[string]string{
		"small.go":   "package x\n\nfunc f() {}\n",
		"crlf.txt":   "a\r\nb\r\n",
		"nonl.txt":   "one\ntwo",
		"empty.txt":  "",
		"long.txt":   long.String(),
		"nul.bin":    "abc\x00def",
		"late.bin":   strings.Repeat("a", 5000) + "\x00",
		"latin1.txt": "caf\xe9 au lait\n",
		"big.txt":    strings.Repeat("x", 2048) + "\n",
		"wide.txt":   strings.Repeat("y", maxLineChars+5) + "\n",
		"dir/f.txt":  "f\n",
	})
	tool := toolByName(t, ws, Limits{ReadMaxBytes: 1024, OutputChars: 200}, "read_file")
	tests := []struct {
		name        string
		args        map[string]any
		wantOut     string
		wantSummary string
		wantErr     string
	}{
		{name: "whole", args: map[string]any{"path": "small.go"},
			wantOut: "     1\tpackage x\n     2\t\n     3\tfunc f() {}\n", wantSummary: "3 lines"},
		{name: "crlf", args: map[string]any{"path": "crlf.txt"}, wantOut: "     1\ta\n     2\tb\n"},
		{name: "no final newline", args: map[string]any{"path": "nonl.txt"}, wantOut: "     1\tone\n     2\ttwo\n", wantSummary: "2 lines"},
		{name: "empty", args: map[string]any{"path": "empty.txt"}, wantOut: "(empty file)", wantSummary: "0 lines"},
		{name: "range", args: map[string]any{"path": "long.txt", "offset": 12, "limit": 2},
			wantOut: "    12\tline 12\n    13\tline 13\n", wantSummary: "2 lines"},
		{name: "offset to end", args: map[string]any{"path": "long.txt", "offset": 99},
			wantOut: "    99\tline 99\n   100\tline 100\n", wantSummary: "2 lines"},
		{name: "output limit", args: map[string]any{"path": "long.txt", "offset": 1, "limit": 50},
			wantOut: "    13\tline 13\n… [truncated: output limit reached; continue with offset=14]", wantSummary: "13 lines (truncated)"},
		{name: "big by range", args: map[string]any{"path": "big.txt", "limit": 1}, wantOut: "[line cut: 1,848 more characters]"},
		{name: "offset past end", args: map[string]any{"path": "small.go", "offset": 9}, wantErr: "offset 9 is past the end of small.go (3 lines)"},
		{name: "missing", args: map[string]any{"path": "nope.go"}, wantErr: "file not found: nope.go"},
		{name: "directory", args: map[string]any{"path": "dir"}, wantErr: "dir is a directory; use list_files"},
		{name: "nul byte", args: map[string]any{"path": "nul.bin"}, wantErr: "binary file: nul.bin"},
		{name: "nul past 4 KiB", args: map[string]any{"path": "late.bin", "limit": 1}, wantErr: "binary file: late.bin"},
		{name: "invalid utf-8", args: map[string]any{"path": "latin1.txt"}, wantErr: "binary file: latin1.txt"},
		{name: "too big", args: map[string]any{"path": "big.txt"}, wantErr: "big.txt is 2 KiB, over read_file's 1 KiB limit; read a line range with offset and limit"},
		{name: "outside", args: map[string]any{"path": "../x"}, wantErr: "outside the workspace"},
		{name: "negative", args: map[string]any{"path": "small.go", "offset": -1}, wantErr: "must be positive"},
		{name: "missing path", args: map[string]any{}, wantErr: `invalid arguments for read_file: missing required field "path"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := call(t, tool, tc.args)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Output, tc.wantOut) {
				t.Fatalf("output %q does not contain %q", res.Output, tc.wantOut)
			}
			if tc.wantSummary != "" && res.Summary != tc.wantSummary {
				t.Fatalf("summary = %q, want %q", res.Summary, tc.wantSummary)
			}
		})
	}
	wide := mustCall(t, toolByName(t, ws, Limits{}, "read_file"), map[string]any{"path": "wide.txt"})
	if !strings.HasSuffix(wide.Output, "y … [line cut: 5 more characters]\n") {
		t.Fatalf("wide line not cut at %d characters: %q", maxLineChars, wide.Output[len(wide.Output)-60:])
	}
}

func TestIsBinary(t *testing.T) {
	tests := []struct {
		name string
		head string
		want bool
	}{
		{"text", "hello\n", false},
		{"empty", "", false},
		{"nul", "a\x00b", true},
		{"latin-1", "caf\xe9!", true},
		{"rune cut by the window", "ok \xe6\x97", false},
		{"stray continuation at end", "ok \x97", true},
	}
	for _, tc := range tests {
		if got := isBinary([]byte(tc.head)); got != tc.want {
			t.Errorf("%s: isBinary(%q) = %v, want %v", tc.name, tc.head, got, tc.want)
		}
	}
}

// TestSpecialFiles checks that no tool opens a FIFO, which would block
// the call forever.
func TestSpecialFiles(t *testing.T) {
	ws := newTree(t, map[string]string{"a.txt": "needle\n"})
	if err := syscall.Mkfifo(filepath.Join(ws.Root(), "pipe"), 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	for tool, args := range map[string]map[string]any{
		"read_file":  {"path": "pipe"},
		"grep":       {"pattern": "x", "path": "pipe"},
		"write_file": {"path": "pipe", "content": "x"},
		"edit_file":  {"path": "pipe", "old_string": "a", "new_string": "b"},
	} {
		if _, err := call(t, toolByName(t, ws, Limits{}, tool), args); err == nil || !strings.Contains(err.Error(), "pipe is not a regular file") {
			t.Errorf("%s on a FIFO: error = %v", tool, err)
		}
	}
	res := mustCall(t, toolByName(t, ws, Limits{}, "grep"), map[string]any{"pattern": "needle"})
	if res.Output != "a.txt:1: needle" {
		t.Fatalf("grep over a tree with a FIFO = %q", res.Output)
	}
}
