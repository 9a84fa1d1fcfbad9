package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// A session starts by forgetting git's records of baton's worktrees
// whose folders vanished (a repository with linked worktrees is the one
// case that starts the prune), and keeps a record whose folder is there.
func TestSessionStartPrunesVanishedWorktrees(t *testing.T) {
	root := t.TempDir()
	var workspace string
	s, _ := newTestSession(t, func(*llmtest.Request, *llmtest.Writer) {}, func(c *Config) {
		workspace = c.Workspace
		c.Worktrees.Root = root
		writeFile(t, c.Workspace, "a.txt", "a\n")
		gitRepo(t, c.Workspace)
		for _, name := range []string{"gone", "kept"} {
			cmd := exec.Command("git", "worktree", "add", "-q", "-b", name, filepath.Join(root, name))
			cmd.Dir = c.Workspace
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git worktree add: %v\n%s", err, out)
			}
		}
		if err := os.RemoveAll(filepath.Join(root, "gone")); err != nil {
			t.Fatal(err)
		}
	})
	// The prune is the session's only background work here; Close would
	// cancel it.
	s.background.Wait()
	admin := filepath.Join(workspace, ".git", "worktrees")
	if _, err := os.Stat(filepath.Join(admin, "gone")); !os.IsNotExist(err) {
		t.Errorf("the vanished worktree's record is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(admin, "kept")); err != nil {
		t.Errorf("the record of a worktree that is there went: %v", err)
	}
}
