package fanin

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
	"github.com/seed-e4e525a6/baton/engine/worktree"
)

const lines = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\n"

// repo makes a repository holding files, committed.
func repo(t *testing.T, files map[string]string) worktree.Repo {
	t.Helper()
	dir := t.TempDir()
	for path, content := range files {
		write(t, filepath.Join(dir, path), content)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "first"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	r, err := worktree.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// child adds a worktree of r, lets edit change it, and returns its
// whole change as a part.
func child(t *testing.T, r worktree.Repo, state string, id event.AgentID, edit func(dir string)) Part {
	t.Helper()
	ctx := context.Background()
	snap, err := r.Take(ctx, filepath.Join(state, ".scratch"))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := r.Add(ctx, filepath.Join(state, string(id)), snap)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tree.Remove(context.Background()) })
	edit(tree.Dir)
	change, err := tree.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p := Part{Agent: id, Tree: tree, Files: change.Files}
	for range change.Files {
		p.Chosen = append(p.Chosen, func(int) bool { return true })
	}
	return p
}

// person reads the person's files the way the session does: through the
// workspace's guarded path.
func person(t *testing.T, r worktree.Repo) (*tools.Workspace, Reader) {
	t.Helper()
	ws, err := tools.NewWorkspace(r.Top)
	if err != nil {
		t.Fatal(err)
	}
	return ws, func(ctx context.Context, path string) ([]byte, bool, error) {
		var data []byte
		var exists bool
		err := ws.Update(ctx, filepath.Join(r.Top, path), func(old []byte, ok bool) (tools.FileUpdate, error) {
			data, exists = old, ok
			return tools.FileUpdate{Keep: true}, nil
		})
		return data, exists, err
	}
}

func replace(line, with string) func(string) {
	return func(dir string) {
		b, _ := os.ReadFile(filepath.Join(dir, "f.txt"))
		_ = os.WriteFile(filepath.Join(dir, "f.txt"), []byte(strings.Replace(string(b), line+"\n", with+"\n", 1)), 0o644)
	}
}

// Changes to different lines of one file merge, in order, and overlap;
// one to a line a change merged before it changed is left out, naming
// that change; the scratch worktree holds the merge, the person's tree
// stays as it was until Apply, which writes nothing once the person's
// file changed since the preview.
func TestPreviewMergesInOrderAndLeavesConflictsOut(t *testing.T) {
	r := repo(t, map[string]string{"f.txt": lines})
	state := t.TempDir()
	one := child(t, r, state, "one", replace("l2", "one"))
	two := child(t, r, state, "two", replace("l8", "two"))
	three := child(t, r, state, "three", replace("l2", "three"))
	ws, read := person(t, r)
	ctx := context.Background()
	plan, err := Preview(ctx, []Part{one, two, three}, read)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Order) != 2 || plan.Order[0] != "one" || plan.Order[1] != "two" || plan.Clean() {
		t.Fatalf("order %v, left %+v", plan.Order, plan.Left)
	}
	if l := plan.Left[0]; l.Agent != "three" || l.Path != "f.txt" || len(l.With) != 1 || l.With[0] != "one" || l.Regions != 1 {
		t.Fatalf("left %+v", l)
	}
	if f := plan.Files[0]; !f.Overlap() || len(f.By) != 3 || len(f.Conflicting) != 1 {
		t.Fatalf("file %+v", f)
	}
	want := strings.Replace(strings.Replace(lines, "l2\n", "one\n", 1), "l8\n", "two\n", 1)
	var seen string
	err = plan.InScratch(ctx, r, filepath.Join(state, ".scratch"), filepath.Join(state, "merge"), func(sws *tools.Workspace) {
		b, _ := os.ReadFile(filepath.Join(sws.Root(), "f.txt"))
		seen = string(b)
	})
	if err != nil || seen != want {
		t.Fatalf("scratch f.txt %q, %v", seen, err)
	}
	if _, err := os.Lstat(filepath.Join(state, "merge")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the scratch worktree was left: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(r.Top, "f.txt")); string(b) != lines {
		t.Fatalf("the preview changed the person's file: %q", b)
	}

	write(t, filepath.Join(r.Top, "f.txt"), lines+"mine\n")
	if written, err := plan.Apply(ctx, ws, r.Top); !errors.Is(err, ErrTreeChanged) || len(written) != 0 {
		t.Fatalf("apply over a changed file: %v, %v", written, err)
	}
	if b, _ := os.ReadFile(filepath.Join(r.Top, "f.txt")); string(b) != lines+"mine\n" {
		t.Fatalf("f.txt = %q", b)
	}
	write(t, filepath.Join(r.Top, "f.txt"), lines)
	if written, err := plan.Apply(ctx, ws, r.Top); err != nil || len(written) != 1 {
		t.Fatalf("apply: %v, %v", written, err)
	}
	if b, _ := os.ReadFile(filepath.Join(r.Top, "f.txt")); string(b) != want {
		t.Fatalf("f.txt = %q", b)
	}
}

// A change that replaces the person's symbolic link to a folder outside
// the repository with a folder of its own cannot write through the link:
// the preview refuses the file, and nothing lands outside.
func TestPreviewNeverWritesThroughThePersonsSymlink(t *testing.T) {
	outside := t.TempDir()
	r := repo(t, map[string]string{"f.txt": lines})
	if err := os.Symlink(outside, filepath.Join(r.Top, "link")); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "-C", r.Top, "add", "link").CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	state := t.TempDir()
	p := child(t, r, state, "one", func(dir string) {
		_ = os.Remove(filepath.Join(dir, "link"))
		write(t, filepath.Join(dir, "link", "planted"), "pwned\n")
	})
	_, read := person(t, r)
	plan, err := Preview(context.Background(), []Part{p}, read)
	if err == nil {
		err = plan.InScratch(context.Background(), r, filepath.Join(state, ".scratch"), filepath.Join(state, "merge"), func(*tools.Workspace) {})
	}
	if err == nil {
		ws, _ := person(t, r)
		_, err = plan.Apply(context.Background(), ws, r.Top)
	}
	if err == nil {
		t.Fatal("a change was merged through the person's symbolic link")
	}
	if _, statErr := os.Lstat(filepath.Join(outside, "planted")); !errors.Is(statErr, os.ErrNotExist) {
		t.Fatalf("planted outside the repository: %v (err %v)", statErr, err)
	}
}
