package fanin

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/tools"
)

// A plan holds what each part chose, whole: a new file, a deleted one,
// the same edit made twice (merged once), hunks left unchosen (their file
// untouched), a symbolic link (listed as skipped, never written); a part
// that clashes with the person's own edit is left out naming no other
// part, though it is still listed as touching its other files, and one
// whose edit touches the lines two parts before it changed names both.
// Apply then writes exactly the plan's changes.
func TestPlanHoldsEachKindOfChange(t *testing.T) {
	r := repo(t, map[string]string{"f.txt": lines, "gone.txt": "bye\n", "g.txt": lines, "h.txt": lines})
	state := t.TempDir()
	adds := child(t, r, state, "adds", func(dir string) {
		write(t, filepath.Join(dir, "new.txt"), "fresh\n")
		_ = os.Remove(filepath.Join(dir, "gone.txt"))
		_ = os.Symlink("f.txt", filepath.Join(dir, "alias"))
		write(t, filepath.Join(dir, "h.txt"), strings.Replace(lines, "l1\n", "x\n", 1))
	})
	for i, f := range adds.Files {
		if f.Path == "h.txt" {
			adds.Chosen[i] = func(int) bool { return false }
		}
	}
	same1 := child(t, r, state, "same1", replace("l5", "same"))
	same2 := child(t, r, state, "same2", replace("l5", "same"))
	near := child(t, r, state, "near", replace("l4", "near"))
	clash := child(t, r, state, "clash", func(dir string) {
		write(t, filepath.Join(dir, "g.txt"), strings.Replace(lines, "l3\n", "theirs\n", 1))
		write(t, filepath.Join(dir, "z.txt"), "more\n")
	})
	write(t, filepath.Join(r.Top, "g.txt"), strings.Replace(lines, "l3\n", "mine\n", 1))
	ws, read := person(t, r)
	ctx := context.Background()
	plan, err := Preview(ctx, []Part{adds, same1, same2, near, clash}, read)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"adds", "same1", "same2"}; !slices.Equal(agents(plan.Order), want) {
		t.Errorf("order %v, want %v", plan.Order, want)
	}
	if len(plan.Left) != 2 {
		t.Fatalf("left %+v, want near and clash", plan.Left)
	}
	if l := plan.Left[0]; l.Agent != "near" || l.Path != "f.txt" || !slices.Equal(agents(l.With), []string{"same1", "same2"}) {
		t.Errorf("left %+v, want near clashing in f.txt with same1 and same2", l)
	}
	if l := plan.Left[1]; l.Agent != "clash" || l.Path != "g.txt" || len(l.With) != 0 {
		t.Errorf("left %+v, want clash in g.txt with the person's edit alone", l)
	}
	if !slices.Equal(plan.Skipped, []string{"alias"}) {
		t.Errorf("skipped %v, want the link", plan.Skipped)
	}
	byPath := map[string]File{}
	for _, f := range plan.Files {
		byPath[f.Path] = f
	}
	if _, ok := byPath["h.txt"]; ok {
		t.Errorf("a file with no hunk chosen is in the plan: %+v", byPath["h.txt"])
	}
	if f := byPath["z.txt"]; len(f.By) != 1 || f.Changed() {
		t.Errorf("the left-out part's other file: %+v", f)
	}
	var changed []string
	for _, f := range plan.Changes() {
		changed = append(changed, f.Path)
	}
	slices.Sort(changed)
	if want := []string{"f.txt", "gone.txt", "new.txt"}; !slices.Equal(changed, want) {
		t.Fatalf("changes %v, want %v", changed, want)
	}
	write(t, filepath.Join(r.Top, "g.txt"), lines) // undoing the person's edit does not matter: g.txt is not written
	if _, err := plan.Apply(ctx, ws, r.Top); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{"new.txt": "fresh\n", "f.txt": strings.Replace(lines, "l5\n", "same\n", 1), "h.txt": lines, "g.txt": lines} {
		if b, err := os.ReadFile(filepath.Join(r.Top, path)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", path, b, err, want)
		}
	}
	for _, path := range []string{"gone.txt", "alias", "z.txt"} {
		if _, err := os.Lstat(filepath.Join(r.Top, path)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: %v, want it absent", path, err)
		}
	}
}

// A preview or its scratch worktree that cannot be made is an error
// that names why, and nothing runs or is written: a file the person's
// tree cannot give, a scratch folder that exists, a snapshot folder
// that cannot be, a part whose worktree is gone.
func TestPreviewAndScratchErrors(t *testing.T) {
	r := repo(t, map[string]string{"f.txt": lines})
	state := t.TempDir()
	p := child(t, r, state, "one", replace("l2", "one"))
	ctx := context.Background()
	boom := errors.New("disk on fire")
	_, err := Preview(ctx, []Part{p}, func(context.Context, string) ([]byte, bool, error) { return nil, false, boom })
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "read f.txt") {
		t.Errorf("Preview with an unreadable file: %v", err)
	}

	_, read := person(t, r)
	plan, err := Preview(ctx, []Part{p}, read)
	if err != nil {
		t.Fatal(err)
	}
	taken := filepath.Join(state, "taken")
	write(t, filepath.Join(taken, "keep.txt"), "mine\n")
	ran := false
	err = plan.InScratch(ctx, r, filepath.Join(state, ".scratch"), taken, func(*tools.Workspace) { ran = true })
	if err == nil || ran || !strings.Contains(err.Error(), "scratch worktree") {
		t.Errorf("InScratch into an existing folder: %v, ran %v", err, ran)
	}
	if b, _ := os.ReadFile(filepath.Join(taken, "keep.txt")); string(b) != "mine\n" {
		t.Errorf("the existing folder's file became %q", b)
	}
	err = plan.InScratch(ctx, r, filepath.Join(taken, "keep.txt", "snap"), filepath.Join(state, "merge"), func(*tools.Workspace) { ran = true })
	if err == nil || ran {
		t.Errorf("InScratch with a snapshot folder under a file: %v, ran %v", err, ran)
	}

	// The part's worktree gone (removed, or its git directory lost), it
	// cannot be merged: an error naming the file and the part, not a
	// plan that silently drops it.
	if err := os.RemoveAll(p.Tree.Dir); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "-C", r.Top, "worktree", "prune").CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	if _, err := Preview(ctx, []Part{p}, read); err == nil || !strings.Contains(err.Error(), "merge f.txt of one") {
		t.Errorf("Preview of a removed worktree: %v", err)
	}
}

func agents[T ~string](ids []T) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = string(id)
	}
	return out
}

// A part whose worktree is gone (removed, or its git directory lost)
// cannot be merged: the preview is an error naming the file and the
// part, not a plan that silently drops it.
func TestPreviewNamesAPartThatCannotBeMerged(t *testing.T) {
	r := repo(t, map[string]string{"f.txt": lines})
	p := child(t, r, t.TempDir(), "gone", replace("l2", "gone"))
	if err := os.RemoveAll(p.Tree.Dir); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "-C", r.Top, "worktree", "prune").CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	_, read := person(t, r)
	if _, err := Preview(context.Background(), []Part{p}, read); err == nil || !strings.Contains(err.Error(), "merge f.txt of gone") {
		t.Errorf("Preview of a removed worktree: %v", err)
	}
}
