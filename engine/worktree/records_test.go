package worktree

import (
	"os"
	"path/filepath"
	"testing"
)

// MayHaveRecords finds the repository's .git from any folder below it and
// says whether git must be asked: only when linked worktrees were ever
// recorded there, or when .git is a pointer file.
func TestMayHaveRecords(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	sub := filepath.Join(repo, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if MayHaveRecords(sub) {
		t.Fatal("no .git anywhere above: want false")
	}
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if MayHaveRecords(sub) || MayHaveRecords(repo) {
		t.Fatal("a .git folder without worktrees: want false")
	}
	if err := os.Mkdir(filepath.Join(repo, ".git", "worktrees"), 0o755); err != nil {
		t.Fatal(err)
	}
	if !MayHaveRecords(sub) {
		t.Fatal("a .git folder with worktrees: want true")
	}
	linked := filepath.Join(root, "linked")
	if err := os.MkdirAll(linked, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(linked, ".git"), []byte("gitdir: "+filepath.Join(repo, ".git", "worktrees", "x")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !MayHaveRecords(linked) {
		t.Fatal("a .git file: want true, git is asked")
	}
}
