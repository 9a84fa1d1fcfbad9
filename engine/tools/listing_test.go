package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ignoreTree is a workspace whose root and nested .gitignore files hide
// some entries, with a .git folder that must never show.
func ignoreTree(t testing.TB) *Workspace {
	t.Helper()
	return newTree(t, map[string]string{
		".git/HEAD":       "ref: refs/heads/main\n",
		".gitignore":      "build/\n*.log\n!keep.log\n",
		"main.go":         "package main\n\n// TODO: main\nfunc main() {}\n",
		"app.log":         "TODO: ignored log\n",
		"keep.log":        "TODO: kept log\n",
		"build/out.go":    "package build // TODO: ignored\n",
		"src/.gitignore":  "gen/\n",
		"src/a.go":        "package src\n\nfunc A() {} // todo: lower\n",
		"src/b_test.go":   "package src\n\n// TODO: test\n",
		"src/gen/z.go":    "package gen // TODO: generated\n",
		"src/deep/x/y.go": "package x\n",
		"src/blob.bin":    "TODO\x00binary\n",
	})
}

func TestListFiles(t *testing.T) {
	ws := ignoreTree(t)
	if err := os.Mkdir(filepath.Join(ws.Root(), "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	tool := toolByName(t, ws, Limits{}, "list_files")
	tests := []struct {
		name    string
		args    map[string]any
		want    string
		wantErr string
	}{
		{name: "root, default depth", args: map[string]any{},
			want: ".gitignore\nempty/\nkeep.log\nmain.go\nsrc/\nsrc/.gitignore\nsrc/a.go\nsrc/b_test.go\nsrc/blob.bin\nsrc/deep/"},
		{name: "subdir, depth 1", args: map[string]any{"path": "src", "depth": 1},
			want: "src/.gitignore\nsrc/a.go\nsrc/b_test.go\nsrc/blob.bin\nsrc/deep/"},
		{name: "deep", args: map[string]any{"path": "src/deep", "depth": 5}, want: "src/deep/x/\nsrc/deep/x/y.go"},
		{name: "ignored dir named on purpose", args: map[string]any{"path": "build"}, want: "build/out.go"},
		{name: "empty", args: map[string]any{"path": "empty"}, want: "(empty directory)"},
		{name: "file", args: map[string]any{"path": "main.go"}, wantErr: "main.go is not a directory"},
		{name: "missing", args: map[string]any{"path": "nope"}, wantErr: "directory not found: nope"},
		{name: "outside", args: map[string]any{"path": ".."}, wantErr: "outside the workspace"},
		{name: "bad depth", args: map[string]any{"depth": -1}, wantErr: "depth must be positive"},
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
		})
	}
}

func TestFindFiles(t *testing.T) {
	ws := ignoreTree(t)
	tool := toolByName(t, ws, Limits{}, "find_files")
	tests := []struct {
		name    string
		args    map[string]any
		want    string
		wantErr string
	}{
		{name: "recursive", args: map[string]any{"pattern": "**/*.go"},
			want: "main.go\nsrc/a.go\nsrc/b_test.go\nsrc/deep/x/y.go"},
		{name: "top level only", args: map[string]any{"pattern": "*.go"}, want: "main.go"},
		{name: "under path", args: map[string]any{"pattern": "*.go", "path": "src"}, want: "src/a.go\nsrc/b_test.go"},
		{name: "dot slash", args: map[string]any{"pattern": "./**/*_test.go"}, want: "src/b_test.go"},
		{name: "braces", args: map[string]any{"pattern": "*.{log,go}"}, want: "keep.log\nmain.go"},
		{name: "ignored dir named on purpose", args: map[string]any{"pattern": "*", "path": "build"}, want: "build/out.go"},
		{name: "no match", args: map[string]any{"pattern": "**/*.rs"}, want: "no files match **/*.rs"},
		{name: "invalid", args: map[string]any{"pattern": "[a-"}, wantErr: `invalid glob pattern "[a-"`},
		{name: "absolute", args: map[string]any{"pattern": "/etc/*"}, wantErr: "must be relative"},
		{name: "missing pattern", args: map[string]any{"path": "src"}, wantErr: `missing required field "pattern"`},
		{name: "outside", args: map[string]any{"pattern": "*", "path": "../"}, wantErr: "outside the workspace"},
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
		})
	}
}

// TestListingBounds checks that listings stop at their entry caps and
// count the rest in the marker.
func TestListingBounds(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range maxFindResults + 5 {
		files[fmt.Sprintf("many/f%04d.txt", i)] = ""
	}
	ws := newTree(t, files)
	list := mustCall(t, toolByName(t, ws, Limits{}, "list_files"), map[string]any{"path": "many"})
	wantMore := fmt.Sprintf("… [truncated: %s more entries]", groupDigits(maxFindResults+5-maxListEntries))
	if !strings.HasSuffix(list.Output, wantMore) || strings.Count(list.Output, "\n") != maxListEntries {
		t.Fatalf("list_files output ends %q, want %d lines and %q", list.Output[len(list.Output)-50:], maxListEntries, wantMore)
	}
	if list.Summary != groupDigits(maxFindResults+5)+" entries" {
		t.Fatalf("list_files summary = %q", list.Summary)
	}
	find := mustCall(t, toolByName(t, ws, Limits{}, "find_files"), map[string]any{"pattern": "**/*.txt"})
	if !strings.HasSuffix(find.Output, "… [truncated: 5 more files]") {
		t.Fatalf("find_files output ends %q", find.Output[len(find.Output)-50:])
	}
	small := mustCall(t, toolByName(t, ws, Limits{OutputChars: 100}, "find_files"), map[string]any{"pattern": "**/*.txt"})
	if !strings.Contains(small.Output, "… [truncated: ") || len([]rune(small.Output)) > 150 {
		t.Fatalf("find_files ignored the output limit: %d characters", len([]rune(small.Output)))
	}
}
