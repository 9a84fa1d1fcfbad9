package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadableFoldersBeyondTheWorkspace: a folder a call may read (a
// loaded skill's) is reachable by absolute path for the reading tools,
// never for writes, and a link inside it that leads out of it is
// refused; a relative path still means the workspace.
func TestReadableFoldersBeyondTheWorkspace(t *testing.T) {
	ws := newTree(t, map[string]string{"a.txt": "workspace\n"})
	skill, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("the skill\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(secret, []byte("private\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(skill, "escape")); err != nil {
		t.Fatal(err)
	}
	ctx := WithReadable(context.Background(), []string{skill})
	if WithReadable(ctx, nil) != ctx {
		t.Error("no folders changed the context")
	}
	read := toolByName(t, ws, Limits{}, "read_file")
	run := func(path string) (Result, error) {
		args, _ := json.Marshal(map[string]any{"path": path})
		return read.Run(ctx, args)
	}
	if res, err := run(filepath.Join(skill, "SKILL.md")); err != nil || !strings.Contains(res.Output, "the skill") {
		t.Errorf("reading the skill: %q, %v", res.Output, err)
	}
	if _, err := run(filepath.Join(skill, "escape")); err == nil || !strings.Contains(err.Error(), "leads outside") {
		t.Errorf("a link out of the skill: %v", err)
	}
	if _, err := run(secret); err == nil {
		t.Error("a file outside both the workspace and the skill was read")
	}
	if res, err := run("a.txt"); err != nil || !strings.Contains(res.Output, "workspace") {
		t.Errorf("a relative path: %q, %v", res.Output, err)
	}
	write := toolByName(t, ws, Limits{}, "write_file")
	args, _ := json.Marshal(map[string]any{"path": filepath.Join(skill, "SKILL.md"), "content": "changed\n"})
	if _, err := write.Run(ctx, args); err == nil {
		t.Error("write_file wrote into a folder that is only readable")
	}
}
