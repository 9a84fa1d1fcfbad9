package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGrep(t *testing.T) {
	ws := ignoreTree(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.go"), []byte("TODO: secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.go"), filepath.Join(ws.Root(), "leak.go")); err != nil {
		t.Fatal(err)
	}
	tool := toolByName(t, ws, Limits{}, "grep")
	tests := []struct {
		name        string
		args        map[string]any
		want        string
		wantSummary string
		wantErr     string
	}{
		{name: "respects gitignore, skips binary and escaping links", args: map[string]any{"pattern": "TODO"},
			want:        "keep.log:1: TODO: kept log\nmain.go:3: // TODO: main\nsrc/b_test.go:3: // TODO: test",
			wantSummary: "3 matches in 3 files"},
		{name: "ignore case", args: map[string]any{"pattern": "todo: (main|lower)", "ignore_case": true},
			want: "main.go:3: // TODO: main\nsrc/a.go:3: func A() {} // todo: lower", wantSummary: "2 matches in 2 files"},
		{name: "glob on names", args: map[string]any{"pattern": "TODO", "glob": "*_test.go"}, want: "src/b_test.go:3: // TODO: test"},
		{name: "glob on paths", args: map[string]any{"pattern": "^package", "glob": "deep/**/*.go", "path": "src"}, want: "src/deep/x/y.go:1: package x"},
		{name: "one file", args: map[string]any{"pattern": "func", "path": "src/a.go"}, want: "src/a.go:3: func A() {} // todo: lower", wantSummary: "1 match in 1 file"},
		{name: "ignored dir named on purpose", args: map[string]any{"pattern": "TODO", "path": "build"}, want: "build/out.go:1: package build // TODO: ignored"},
		{name: "no match", args: map[string]any{"pattern": "FIXME"}, want: `no matches for "FIXME"`, wantSummary: "0 matches"},
		{name: "binary file named", args: map[string]any{"pattern": "x", "path": "src/blob.bin"}, wantErr: "binary file: src/blob.bin"},
		{name: "bad regexp", args: map[string]any{"pattern": "(unclosed"}, wantErr: `grep: invalid regular expression "(unclosed"`},
		{name: "bad glob", args: map[string]any{"pattern": "x", "glob": "[a-"}, wantErr: "invalid glob"},
		{name: "missing path", args: map[string]any{"pattern": "x", "path": "nope"}, wantErr: "path not found: nope"},
		{name: "outside", args: map[string]any{"pattern": "x", "path": "/etc"}, wantErr: "outside the workspace"},
		{name: "escaping link named", args: map[string]any{"pattern": "x", "path": "leak.go"}, wantErr: "through a symlink"},
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
			if res.Output != tc.want {
				t.Fatalf("output:\n%s\nwant:\n%s", res.Output, tc.want)
			}
			if tc.wantSummary != "" && res.Summary != tc.wantSummary {
				t.Fatalf("summary = %q, want %q", res.Summary, tc.wantSummary)
			}
		})
	}
}

func TestGrepBounds(t *testing.T) {
	var many strings.Builder
	for i := range maxGrepMatches + 7 {
		fmt.Fprintf(&many, "match %d\n", i)
	}
	ws := newTree(t, map[string]string{
		"many.txt": many.String(),
		"wide.txt": "match " + strings.Repeat("w", 2*maxGrepLineChars) + "\n",
	})
	res := mustCall(t, toolByName(t, ws, Limits{}, "grep"), map[string]any{"pattern": "match", "path": "many.txt"})
	if !strings.HasSuffix(res.Output, "… [truncated: 7 more matches]") || res.Summary != "207 matches in 1 file" {
		t.Fatalf("grep did not stop at %d matches: summary %q, tail %q", maxGrepMatches, res.Summary, res.Output[len(res.Output)-40:])
	}
	wide := mustCall(t, toolByName(t, ws, Limits{}, "grep"), map[string]any{"pattern": "match", "path": "wide.txt"})
	if want := "wide.txt:1: match " + strings.Repeat("w", maxGrepLineChars-6) + " …"; wide.Output != want {
		t.Fatalf("wide line not cut: %q", wide.Output)
	}
	small := mustCall(t, toolByName(t, ws, Limits{OutputChars: 50}, "grep"), map[string]any{"pattern": "match"})
	if !strings.Contains(small.Output, "… [truncated: ") || len([]rune(small.Output)) > 100 {
		t.Fatalf("grep ignored the output limit: %q", small.Output)
	}
}

// BenchmarkGrep searches a generated tree of 200 Go files of 200 lines.
func BenchmarkGrep(b *testing.B) {
	files := map[string]string{".gitignore": "vendor/\n"}
	var body strings.Builder
	for i := range 200 {
		fmt.Fprintf(&body, "func f%d(x int) int { return x * %d } // line %d\n", i, i, i)
	}
	for i := range 200 {
		files[fmt.Sprintf("pkg%d/file%d.go", i%20, i)] = body.String()
	}
	ws := newTree(b, files)
	tool := toolByName(b, ws, Limits{}, "grep")
	args := []byte(`{"pattern":"return x \\* 19[0-9]","glob":"*.go"}`)
	for b.Loop() {
		if _, err := tool.Run(b.Context(), args); err != nil {
			b.Fatal(err)
		}
	}
}
