package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// newTree writes files (slash paths to contents) under a fresh temporary
// directory and returns a workspace rooted there.
func newTree(t testing.TB, files map[string]string) *Workspace {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// toolByName picks one of the base tools of ws with the given limits.
func toolByName(t testing.TB, ws *Workspace, lim Limits, name string) Tool {
	t.Helper()
	tool, ok := NewSet(Base(ws, lim, testBox(ws))...).Get(name)
	if !ok {
		t.Fatalf("no tool %q", name)
	}
	return tool
}

// call runs a tool with args marshalled from v.
func call(t testing.TB, tool Tool, v any) (Result, error) {
	t.Helper()
	args, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return tool.Run(context.Background(), args)
}

// mustCall is call for calls that must succeed.
func mustCall(t testing.TB, tool Tool, v any) Result {
	t.Helper()
	res, err := call(t, tool, v)
	if err != nil {
		t.Fatalf("%s(%v): %v", tool.Name(), v, err)
	}
	return res
}

// readBack returns a workspace file's content.
func readBack(t testing.TB, ws *Workspace, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(ws.Root(), filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
