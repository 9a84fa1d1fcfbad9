package worktree

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// newRepo makes a repository with one commit of files.
func newRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	for name, body := range files {
		write(t, dir, name, body)
	}
	run(t, dir, "add", "-A")
	run(t, dir, "commit", "-q", "-m", "first")
	return dir
}

// run runs git in dir for a test and returns its output.
func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// write puts a file in dir, making its folders.
func write(t *testing.T, dir, name, body string) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// read returns a file's content, "" when it is missing.
func read(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(data)
}

// startTree snapshots repo and adds a worktree of it under a temp root.
func startTree(t *testing.T, repo string) (Tree, Snapshot) {
	t.Helper()
	ctx := context.Background()
	r, err := Open(ctx, repo)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	snap, err := r.Take(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := r.Add(ctx, Location(root, r.Top, "s1", "child-1"), snap)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tree.Remove(context.Background()) })
	return tree, snap
}

// lines makes a file body of numbered lines.
func lines(n int, change map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if s, ok := change[i]; ok {
			b.WriteString(s + "\n")
			continue
		}
		b.WriteString("line " + string(rune('a'+i%26)) + " " + strings.Repeat("x", i%5) + "\n")
	}
	return b.String()
}

// chmodX makes a file executable.
func chmodX(path string) error { return os.Chmod(path, 0o755) }

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// removeFile deletes a file.
func removeFile(path string) error { return os.Remove(path) }

// filepathDir goes up n folders from p.
func filepathDir(p string, n int) string {
	for range n {
		p = filepath.Dir(p)
	}
	return p
}

// TestGitCallsNeverRunAPlantedGit: a command may leave a `git` in a
// folder of the workspace that is on the person's PATH (direnv's
// PATH_add bin) while a child's worktree is being made; baton's own git
// calls run the git found when it started, never that one.
func TestGitCallsNeverRunAPlantedGit(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "a\n"})
	bin := filepath.Join(repo, "bin")
	marker := filepath.Join(t.TempDir(), "pwned")
	write(t, repo, "bin/git", "#!/bin/sh\ntouch "+marker+"\nexit 1\n")
	if err := chmodX(filepath.Join(bin, "git")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	if _, err := Open(context.Background(), repo); err != nil {
		t.Fatal(err)
	}
	if exists(marker) {
		t.Fatal("baton's git call ran the git planted on PATH")
	}
}
