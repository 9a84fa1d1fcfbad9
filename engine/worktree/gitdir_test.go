package worktree

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRedirectedGitFileIgnored is the attack of a child that points its
// worktree's `.git` at the person's repository, by a "gitdir:" line or
// by a symbolic link: baton's diff, review reads and keep commit still
// use the git directory made for the worktree, so the person's index,
// HEAD and branch stay exactly as they were, and the change is committed
// where it belongs; removing the worktree leaves the person's repository
// alone.
func TestRedirectedGitFileIgnored(t *testing.T) {
	for name, redirect := range map[string]func(t *testing.T, tree, person string){
		"gitdir line": func(t *testing.T, tree, person string) {
			write(t, tree, ".git", "gitdir: "+filepath.Join(person, ".git")+"\n")
		},
		"symlink": func(t *testing.T, tree, person string) {
			if err := os.Remove(filepath.Join(tree, ".git")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(person, ".git"), filepath.Join(tree, ".git")); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			person := newRepo(t, map[string]string{"a.txt": "one\n", "b.txt": "two\n"})
			write(t, person, "a.txt", "person's unstaged edit\n")
			head := run(t, person, "rev-parse", "HEAD")
			status := run(t, person, "status", "--porcelain")
			index := run(t, person, "ls-files", "--stage")

			tree, _ := startTree(t, person)
			write(t, tree.Dir, "b.txt", "two, changed by the child\n")
			write(t, tree.Dir, "planted.txt", "the child's new file\n")
			redirect(t, tree.Dir, person)

			change, err := tree.Diff(ctx)
			if err != nil {
				t.Fatalf("diff: %v", err)
			}
			var paths []string
			for _, f := range change.Files {
				paths = append(paths, f.Path)
			}
			if strings.Join(paths, " ") != "b.txt planted.txt" {
				t.Fatalf("change = %v", paths)
			}
			merged, err := tree.Merge(ctx, change.Files[0], all, []byte("two\n"), true, Ask)
			if err != nil || string(merged.Data) != "two, changed by the child\n" {
				t.Fatalf("merge = %q, %v", merged.Data, err)
			}
			if err := tree.Keep(ctx, "baton/s1/child-1", "baton: kept"); err != nil {
				t.Fatalf("keep: %v", err)
			}
			if got := run(t, person, "rev-parse", "HEAD"); got != head {
				t.Errorf("the person's HEAD moved to %s", got)
			}
			if got := run(t, person, "symbolic-ref", "HEAD"); got != "refs/heads/main\n" {
				t.Errorf("the person's HEAD was switched to %s", got)
			}
			if got := run(t, person, "status", "--porcelain"); got != status {
				t.Errorf("the person's status changed:\n%s\nwas\n%s", got, status)
			}
			if got := run(t, person, "ls-files", "--stage"); got != index {
				t.Errorf("the person's index changed:\n%s\nwas\n%s", got, index)
			}
			if got := run(t, person, "show", "baton/s1/child-1:planted.txt"); got != "the child's new file\n" {
				t.Errorf("kept branch has planted.txt = %q", got)
			}
			if err := tree.Remove(ctx); err != nil || exists(tree.Dir) {
				t.Fatalf("remove: %v (folder left: %v)", err, exists(tree.Dir))
			}
			if got := run(t, person, "rev-parse", "HEAD"); got != head || read(t, person, "a.txt") != "person's unstaged edit\n" {
				t.Errorf("removing the worktree touched the person's repository")
			}
		})
	}
}
