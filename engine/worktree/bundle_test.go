package worktree

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runGit runs git in dir for a test, failing it on error.
func runGit(t *testing.T, dir string, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// remoteChild checks the bundle out elsewhere, as a pod does, and returns
// the folder; result bundles the commit of edit's making there.
func remoteChild(t *testing.T, bundle, ref string) string {
	t.Helper()
	dir := t.TempDir()
	runGit(t, dir, "", "init", "-q")
	runGit(t, dir, "", "fetch", "-q", bundle, ref+":"+ref)
	runGit(t, dir, "", "checkout", "-q", "--detach", ref)
	return dir
}

func resultBundle(t *testing.T, dir, commit, base string) string {
	t.Helper()
	runGit(t, dir, "", "update-ref", ResultRef, commit)
	file := filepath.Join(t.TempDir(), "result.bundle")
	runGit(t, dir, "", "bundle", "create", "-q", file, ResultRef, "^"+base)
	return file
}

// bundledRepo is a repository with a committed file and an uncommitted
// one, bundled; it returns the repo, the bundle, its ref and base.
func bundledRepo(t *testing.T) (Repo, string, string, string) {
	t.Helper()
	top := t.TempDir()
	runGit(t, top, "", "init", "-q")
	if err := os.WriteFile(filepath.Join(top, "a.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runGit(t, top, "", "add", "-A")
	runGit(t, top, "", "commit", "-q", "-m", "init")
	if err := os.WriteFile(filepath.Join(top, "draft.txt"), []byte("not committed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	repo, err := Open(context.Background(), top)
	if err != nil {
		t.Fatal(err)
	}
	bundle := filepath.Join(t.TempDir(), "ws.bundle")
	const ref = "refs/baton/kube/test"
	base, err := repo.Bundle(context.Background(), t.TempDir(), bundle, ref)
	if err != nil {
		t.Fatal(err)
	}
	return repo, bundle, ref, base
}

// A workspace goes out as one commit of its current files, history-less,
// and a child's change elsewhere comes back into the work tree's files.
func TestBundleRoundTrip(t *testing.T) {
	repo, bundle, ref, base := bundledRepo(t)
	pod := remoteChild(t, bundle, ref)
	if got := runGit(t, pod, "", "rev-list", "--count", "HEAD"); got != "1" {
		t.Errorf("the bundle carries %s commits, want the snapshot alone", got)
	}
	if data, err := os.ReadFile(filepath.Join(pod, "draft.txt")); err != nil || string(data) != "not committed\n" {
		t.Fatalf("the uncommitted file did not go: %q %v", data, err)
	}
	if err := os.WriteFile(filepath.Join(pod, "a.txt"), []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runGit(t, pod, "", "commit", "-q", "-am", "child")
	if err := repo.ApplyBundle(context.Background(), resultBundle(t, pod, "HEAD", base), base); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(repo.Top, "a.txt")); string(data) != "two\n" {
		t.Fatalf("a.txt = %q, want the child's change", data)
	}
	repo.Forget(context.Background(), ref)
	if refs := runGit(t, repo.Top, "", "for-each-ref", "refs/baton/", ResultRef+"-*"); refs != "" {
		t.Errorf("refs left: %s", refs)
	}
}

// A result bundle is hostile input: one whose tree holds a .git folder
// (a hook, a config) is refused when its objects are read, and one that
// does not start from the workspace is refused before anything is
// written.
func TestApplyBundleRefusesHostileResults(t *testing.T) {
	t.Run(".git in the tree", func(t *testing.T) {
		repo, bundle, ref, base := bundledRepo(t)
		pod := remoteChild(t, bundle, ref)
		blob := runGit(t, pod, "[core]\n\tfsmonitor = touch /tmp/pwned\n", "hash-object", "-w", "--stdin")
		inner := runGit(t, pod, "100644 blob "+blob+"\tconfig\n", "mktree")
		tree := runGit(t, pod, "040000 tree "+inner+"\t.git\n", "mktree")
		commit := runGit(t, pod, "", "commit-tree", tree, "-p", base, "-m", "evil")
		err := repo.ApplyBundle(context.Background(), resultBundle(t, pod, commit, base), base)
		if err == nil {
			t.Fatal("a result with a .git folder was applied")
		}
		if data, _ := os.ReadFile(filepath.Join(repo.Top, ".git", "config")); strings.Contains(string(data), "pwned") {
			t.Fatal("the result wrote the repository's config")
		}
	})
	t.Run("not from the workspace", func(t *testing.T) {
		repo, bundle, ref, base := bundledRepo(t)
		pod := remoteChild(t, bundle, ref)
		if err := os.WriteFile(filepath.Join(pod, "a.txt"), []byte("elsewhere\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		tree := runGit(t, pod, "", "write-tree")
		orphan := runGit(t, pod, "", "commit-tree", tree, "-m", "unrelated")
		runGit(t, pod, "", "update-ref", ResultRef, orphan)
		file := filepath.Join(t.TempDir(), "result.bundle")
		runGit(t, pod, "", "bundle", "create", "-q", file, ResultRef)
		if err := repo.ApplyBundle(context.Background(), file, base); err == nil || !strings.Contains(err.Error(), "does not start from its workspace") {
			t.Fatalf("err = %v, want the unrelated result refused", err)
		}
		if data, _ := os.ReadFile(filepath.Join(repo.Top, "a.txt")); string(data) != "one\n" {
			t.Fatalf("a.txt = %q, written anyway", data)
		}
	})
}

// TestBundleErrors: a result that changes nothing writes nothing; a
// result file that is not there, and a ref or bundle place git refuses,
// are errors that name what failed.
func TestBundleErrors(t *testing.T) {
	repo, bundle, ref, base := bundledRepo(t)
	pod := remoteChild(t, bundle, ref)
	a := read(t, repo.Top, "a.txt")
	runGit(t, pod, "", "commit", "-q", "--allow-empty", "-m", "nothing")
	if err := repo.ApplyBundle(context.Background(), resultBundle(t, pod, "HEAD", base), base); err != nil {
		t.Fatal(err)
	}
	if got := read(t, repo.Top, "a.txt"); got != a {
		t.Errorf("an empty result changed a.txt to %q", got)
	}
	if err := repo.ApplyBundle(context.Background(), filepath.Join(t.TempDir(), "missing.bundle"), base); err == nil || !strings.Contains(err.Error(), "read the child's result") {
		t.Errorf("a missing result: %v", err)
	}
	if _, err := repo.Bundle(context.Background(), t.TempDir(), filepath.Join(t.TempDir(), "ws.bundle"), "refs/baton/bad..name"); err == nil || !strings.Contains(err.Error(), "bundle the workspace") {
		t.Errorf("a bad ref: %v", err)
	}
	if _, err := repo.Bundle(context.Background(), t.TempDir(), filepath.Join(t.TempDir(), "no", "such", "ws.bundle"), "refs/baton/x"); err == nil || !strings.Contains(err.Error(), "bundle the workspace") {
		t.Errorf("a bundle in a missing folder: %v", err)
	}
}
