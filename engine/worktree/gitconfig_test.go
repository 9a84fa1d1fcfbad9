package worktree

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRepositoryProgramsNeverRun: a repository whose .git/config names
// filter drivers (clean, smudge, a long-running process) and a textconv
// for every file, as a sandboxed command can write them, gets none of
// them run by baton's own git: not by the snapshot's add, the worktree's
// checkout nor the review's diff. Each program would leave a marker; a
// required filter that is switched off must not fail the snapshot either.
func TestRepositoryProgramsNeverRun(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	markers := t.TempDir()
	script := filepath.Join(markers, "evil.sh")
	write(t, "/", script, "#!/bin/sh\ntouch "+markers+"/ran-$1\ncat\n")
	if err := chmodX(script); err != nil {
		t.Fatal(err)
	}
	cfg := read(t, repo, ".git/config") + `[filter "x.y"]
	clean = ` + script + ` clean
	smudge = ` + script + ` smudge
	required = true
[filter "p"]
	process = ` + script + ` process
[diff "t"]
	textconv = ` + script + ` textconv
`
	write(t, repo, ".git/config", cfg)
	write(t, repo, ".gitattributes", "*.txt filter=x.y diff=t\n*.md filter=p\n")
	write(t, repo, "a.txt", "one changed\n")
	write(t, repo, "b.md", "new\n")

	tree, _ := startTree(t, repo)
	write(t, tree.Dir, "a.txt", "child's\n")
	change, err := tree.Diff(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, files := change.Counts(); files == 0 {
		t.Fatal("the child's change was not seen")
	}
	entries, err := os.ReadDir(markers)
	if err != nil {
		t.Fatal(err)
	}
	var ran []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "ran-") {
			ran = append(ran, e.Name())
		}
	}
	if len(ran) > 0 {
		t.Fatalf("baton's git ran the repository's programs: %v", ran)
	}
	if got := read(t, tree.Dir, "a.txt"); got != "child's\n" {
		t.Fatalf("a.txt in the worktree %q", got)
	}
}
