package kube

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/child"
)

// repoWith makes a git repository of one commit in a new folder.
func repoWith(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// Launch refuses what it cannot place before anything runs, and leaves
// nothing behind when baton-kube cannot start: no scratch folder, no
// bundle ref in the person's repository.
func TestLaunchRefusalsLeaveNothingBehind(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is needed")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	job := func(ws string, names ...string) child.Job {
		j := child.Job{Spec: child.Spec{Workspace: ws, Timeout: time.Minute, Toolbox: child.Toolbox{Names: names}}}
		j.Spec.Meta.Agent = "explore-1"
		return j
	}
	l := &launcher{opts: Options{Image: "reg/baton:1", Bridge: filepath.Join(tmp, "no-such-baton-kube")}}
	ctx := context.Background()
	if _, err := l.Launch(ctx, job(t.TempDir(), "write_file"), nil, io.Discard); err == nil || !strings.Contains(err.Error(), "only in a worktree of its own") {
		t.Fatalf("a writer in the person's tree: %v", err)
	}
	if _, err := l.Launch(ctx, job(t.TempDir(), "read_file"), nil, io.Discard); err == nil || !strings.Contains(err.Error(), "sends the workspace as a git bundle") {
		t.Fatalf("a workspace that is not a repository: %v", err)
	}
	repo := repoWith(t)
	if _, err := l.Launch(ctx, job(repo, "read_file"), []string{"__child", "explore-1"}, io.Discard); err == nil || !strings.Contains(err.Error(), "start "+l.opts.Bridge) {
		t.Fatalf("a baton-kube that cannot start: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "baton-kube-*")); len(left) != 0 {
		t.Fatalf("scratch left behind: %q", left)
	}
	if out, _ := exec.Command("git", "-C", repo, "for-each-ref", "refs/baton/").CombinedOutput(); len(out) != 0 {
		t.Fatalf("bundle refs left in the person's repository: %s", out)
	}
}

// baton-kube is given the Job's every setting, and the child's timeout
// as the Job's deadline.
func TestBridgeArgs(t *testing.T) {
	l := &launcher{opts: Options{Image: "reg/baton:1", Context: "prod", Namespace: "agents", ServiceAccount: "runner",
		RuntimeClass: "gvisor", CPU: "1", Memory: "2Gi", TTLSeconds: 300}}
	l.opts.Endpoint.BaseURL = "https://api.example.com/v1"
	j := child.Job{Spec: child.Spec{Timeout: 5 * time.Minute}}
	args := strings.Join(l.bridgeArgs(j, "baton-x", "/tmp/b", "refs/baton/kube/baton-x", "/w", []string{"__child", "x"}), " ")
	for _, want := range []string{"run --job baton-x --image reg/baton:1 --bundle /tmp/b --bundle-ref refs/baton/kube/baton-x --workspace /w --endpoint https://api.example.com/v1",
		"--context prod", "--namespace agents", "--service-account runner", "--runtime-class gvisor", "--cpu 1", "--memory 2Gi",
		"--ttl-seconds 300", "--deadline 5m0s", "-- __child x"} {
		if !strings.Contains(args, want) {
			t.Errorf("args %q lack %q", args, want)
		}
	}
	if !strings.HasSuffix(args, "-- __child x") {
		t.Errorf("the child's command line must come last: %q", args)
	}
}

// The last line from baton-kube may end without a newline; a bundle
// that was not made is an error, not an empty workspace.
func TestBridgeLinesAndBundles(t *testing.T) {
	br := bufio.NewReader(strings.NewReader("{\"a\":1}\n{\"cut"))
	if line, err := readLine(br); err != nil || string(line) != `{"a":1}` {
		t.Fatalf("first line %q, %v", line, err)
	}
	if line, err := readLine(br); !errors.Is(err, io.EOF) || string(line) != `{"cut` {
		t.Fatalf("a last line without a newline: %q, %v", line, err)
	}
	if err := bundleFits(filepath.Join(t.TempDir(), "none.bundle")); err == nil || !strings.Contains(err.Error(), "bundle the workspace") {
		t.Fatalf("a bundle that is not there: %v", err)
	}
}
