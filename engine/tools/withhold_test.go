package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// denySecrets withholds every file named secret*, as a deny rule on
// read_file(**/secret*) would.
func denySecrets(abs string) (string, bool) {
	if strings.HasPrefix(filepath.Base(abs), "secret") {
		return "read_file(**/secret*)", true
	}
	return "", false
}

// TestWithheldFilesNeverReachTheModel: grep, find_files and list_files
// leave out every file the person's rules withhold, say how many and by
// which rule, and never name them; a folder is still walked into, so
// its other files are found.
func TestWithheldFilesNeverReachTheModel(t *testing.T) {
	ws := newTree(t, map[string]string{
		"secret.env": "TOKEN=hunter2\n", "conf/secret.yaml": "token: hunter2\n", "conf/app.yaml": "token: none\n",
		"secrets/app.txt": "token: folder\n",
	})
	ctx := WithWithhold(context.Background(), denySecrets)
	for _, c := range []struct {
		tool string
		args map[string]any
		find string
	}{
		{"grep", map[string]any{"pattern": "token"}, "app.yaml"},
		{"find_files", map[string]any{"pattern": "**/*"}, "app.yaml"},
		{"list_files", map[string]any{"depth": 3}, "app.yaml"},
	} {
		args, _ := json.Marshal(c.args)
		res, err := toolByName(t, ws, Limits{}, c.tool).Run(ctx, args)
		if err != nil {
			t.Fatalf("%s: %v", c.tool, err)
		}
		if strings.Contains(res.Output, "hunter2") || strings.Contains(res.Output, "secret.env") || strings.Contains(res.Output, "secret.yaml") {
			t.Errorf("%s showed a withheld file:\n%s", c.tool, res.Output)
		}
		if !strings.Contains(res.Output, "[note: 2 files left out by the rule read_file(**/secret*)]") || !strings.Contains(res.Output, c.find) || !strings.Contains(res.Output, "secrets/") && c.tool != "grep" {
			t.Errorf("%s:\n%s", c.tool, res.Output)
		}
	}
}

// TestPathsForMentions: the @mention completion lists files and folders
// (folders with a trailing /) in tree order, without .git, ignored or
// withheld entries, and at most as many as asked, saying there were
// more.
func TestPathsForMentions(t *testing.T) {
	ws := newTree(t, map[string]string{
		"a.go": "", "b/c.go": "", "b/d/e.go": "", ".git/config": "", ".gitignore": "build/\n", "build/out": "", "secret.env": "",
	})
	ctx := WithWithhold(context.Background(), denySecrets)
	paths, more, err := Paths(ctx, ws, 100)
	want := []string{".gitignore", "a.go", "b/", "b/c.go", "b/d/", "b/d/e.go"}
	if err != nil || more || !slices.Equal(paths, want) {
		t.Errorf("Paths = %q, more %v, %v; want %q", paths, more, err, want)
	}
	paths, more, err = Paths(ctx, ws, 3)
	if err != nil || !more || !slices.Equal(paths, want[:3]) {
		t.Errorf("Paths(3) = %q, more %v, %v", paths, more, err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := Paths(cancelled, ws, 100); err == nil {
		t.Error("Paths went on after its context ended")
	}
}

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
