package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestWriteFile(t *testing.T) {
	ws := newTree(t, map[string]string{"old.txt": "one\ntwo\nthree\n", "bin.dat": "a\x00b", "dir/x": ""})
	tool := toolByName(t, ws, Limits{}, "write_file")

	res := mustCall(t, tool, map[string]any{"path": "new/deep/hello.txt", "content": "hi\nthere\n"})
	if got := readBack(t, ws, "new/deep/hello.txt"); got != "hi\nthere\n" {
		t.Fatalf("new file holds %q", got)
	}
	if res.Output != "created new/deep/hello.txt (2 lines)" || res.Summary != "+2 -0" ||
		!strings.HasPrefix(res.Diff, "--- /dev/null\n+++ b/new/deep/hello.txt\n@@ -0,0 +1,2 @@\n+hi\n+there\n") {
		t.Fatalf("create result = %+v", res)
	}

	res = mustCall(t, tool, map[string]any{"path": "old.txt", "content": "one\n2\nthree\n"})
	if res.Output != "wrote old.txt (3 lines)" || res.Summary != "+1 -1" ||
		!strings.Contains(res.Diff, "--- a/old.txt\n+++ b/old.txt\n") || !strings.Contains(res.Diff, "-two\n+2\n") {
		t.Fatalf("replace result = %+v", res)
	}

	res = mustCall(t, tool, map[string]any{"path": "old.txt", "content": "one\n2\nthree\n"})
	if res.Output != "old.txt unchanged" || res.Diff != "" {
		t.Fatalf("unchanged result = %+v", res)
	}

	failures := []struct {
		args    map[string]any
		wantErr string
	}{
		{map[string]any{"path": ".git/config", "content": "x"}, "inside a .git directory"},
		{map[string]any{"path": "../escape.txt", "content": "x"}, "outside the workspace"},
		{map[string]any{"path": "bin.dat", "content": "x"}, "binary file: bin.dat"},
		{map[string]any{"path": "dir", "content": "x"}, "dir is a directory"},
		{map[string]any{"path": "x.txt"}, `missing required field "content"`},
	}
	for _, f := range failures {
		if _, err := call(t, tool, f.args); err == nil || !strings.Contains(err.Error(), f.wantErr) {
			t.Errorf("write_file(%v) error = %v, want %q", f.args, err, f.wantErr)
		}
	}
	if _, err := os.Stat(filepath.Join(ws.Root(), ".git")); !os.IsNotExist(err) {
		t.Fatalf("a refused write created .git: %v", err)
	}
}

func TestWriteFilePreview(t *testing.T) {
	ws := newTree(t, map[string]string{"a.txt": "a\n"})
	tool := toolByName(t, ws, Limits{}, "write_file").(Previewer)
	diff, err := tool.Preview(context.Background(), json.RawMessage(`{"path":"b.txt","content":"b\n"}`))
	if err != nil || !strings.Contains(diff, "--- /dev/null\n+++ b/b.txt\n") {
		t.Fatalf("Preview() = %q, %v", diff, err)
	}
	if _, err := os.Stat(filepath.Join(ws.Root(), "b.txt")); !os.IsNotExist(err) {
		t.Fatal("Preview wrote the file")
	}
	same, err := tool.Preview(context.Background(), json.RawMessage(`{"path":"a.txt","content":"a\n"}`))
	if err != nil || same != "no changes to a.txt" {
		t.Fatalf("Preview(unchanged) = %q, %v", same, err)
	}
}

func TestEditFile(t *testing.T) {
	const src = "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n"
	tests := []struct {
		name    string
		args    map[string]any
		want    string
		wantOut string
		wantErr string
	}{
		{name: "unique", args: map[string]any{"old_string": "func a() {\n\treturn 1", "new_string": "func a() {\n\treturn 2"},
			want: strings.Replace(src, "return 1", "return 2", 1), wantOut: "edited x.go: 1 replacement"},
		{name: "replace all", args: map[string]any{"old_string": "return 1", "new_string": "return 3", "replace_all": true},
			want: strings.ReplaceAll(src, "return 1", "return 3"), wantOut: "edited x.go: 2 replacements"},
		{name: "not unique", args: map[string]any{"old_string": "return 1", "new_string": "return 2"},
			wantErr: "old_string appears 2 times in x.go; add context or set replace_all"},
		{name: "missing", args: map[string]any{"old_string": "return 9", "new_string": "x"}, wantErr: "old_string not found in x.go"},
		{name: "empty old", args: map[string]any{"old_string": "", "new_string": "x"}, wantErr: "old_string is empty"},
		{name: "same", args: map[string]any{"old_string": "a", "new_string": "a"}, wantErr: "are the same"},
		{name: "no new_string", args: map[string]any{"old_string": "a"}, wantErr: `missing required field "new_string"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws := newTree(t, map[string]string{"x.go": src})
			tc.args["path"] = "x.go"
			res, err := call(t, toolByName(t, ws, Limits{}, "edit_file"), tc.args)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				if got := readBack(t, ws, "x.go"); got != src {
					t.Fatalf("a failed edit changed the file to %q", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := readBack(t, ws, "x.go"); got != tc.want {
				t.Fatalf("file = %q, want %q", got, tc.want)
			}
			if res.Output != tc.wantOut || !strings.HasPrefix(res.Diff, "--- a/x.go\n+++ b/x.go\n") {
				t.Fatalf("result = %+v", res)
			}
		})
	}
}

func TestEditFileGuards(t *testing.T) {
	ws := newTree(t, map[string]string{"a.txt": "alpha\n", ".git/config": "[core]\n"})
	tool := toolByName(t, ws, Limits{}, "edit_file")
	for path, wantErr := range map[string]string{
		"missing.txt": "file not found: missing.txt",
		".git/config": "inside a .git directory",
		"/etc/hosts":  "outside the workspace",
	} {
		if _, err := call(t, tool, map[string]any{"path": path, "old_string": "a", "new_string": "b"}); err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("edit %s: error = %v, want %q", path, err, wantErr)
		}
	}
	diff, err := tool.(Previewer).Preview(context.Background(), json.RawMessage(`{"path":"a.txt","old_string":"alpha","new_string":"beta"}`))
	if err != nil || !strings.Contains(diff, "-alpha\n+beta\n") {
		t.Fatalf("Preview() = %q, %v", diff, err)
	}
	if got := readBack(t, ws, "a.txt"); got != "alpha\n" {
		t.Fatalf("Preview edited the file: %q", got)
	}
}

func TestDiffStat(t *testing.T) {
	diff := "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n---- removed dashes\n+++ added pluses\n-b\n"
	if got := diffStat(diff); got != "+1 -2" {
		t.Fatalf("diffStat() = %q, want +1 -2", got)
	}
}

func TestConcurrentEditsOfOneFileAllLand(t *testing.T) {
	ws, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var lines strings.Builder
	for i := range 20 {
		fmt.Fprintf(&lines, "line %d\n", i)
	}
	if err := os.WriteFile(filepath.Join(ws.Root(), "f.txt"), []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	edit, _ := NewSet(Base(ws, Limits{}, testBox(ws))...).Get("edit_file")
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			args := fmt.Sprintf(`{"path":"f.txt","old_string":"line %d\n","new_string":"LINE %d\n"}`, i, i)
			if _, err := edit.Run(context.Background(), json.RawMessage(args)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	data, _ := os.ReadFile(filepath.Join(ws.Root(), "f.txt"))
	if strings.Contains(string(data), "line ") {
		t.Fatalf("an edit was lost:\n%s", data)
	}
}
