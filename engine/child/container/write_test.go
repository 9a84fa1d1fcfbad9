package container_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// gitRepo makes dir a repository with one commit of what it holds.
func gitRepo(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "first"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// A child that writes runs in a container on a worktree of its own (the
// only writable mount), its files and its commands' files come back as
// its change, the person's tree is untouched until the review applies
// it, hunk by hunk as for a local worktree child.
func TestWritingChildInAContainerGoesToReview(t *testing.T) {
	image, binary := engineOrSkip(t)
	srv := llmtest.NewServer(t, delegating("general-purpose", func(r *llmtest.Request, w *llmtest.Writer) {
		switch len(results(r)) {
		case 0:
			w.ToolCalls(llmtest.Call{ID: "w", Name: "write_file", Args: `{"path":"a.txt","content":"a by the contained child\n"}`})
		case 1:
			w.ToolCalls(llmtest.Call{ID: "c", Name: "run_command", Args: `{"command":"echo made in the container > made.txt"}`})
		default:
			w.Text("edited")
		}
	}))
	var ws string
	s := session(t, srv, image, binary, func(c *engine.Config) {
		ws = c.Workspace
		c.Worktrees.Root = t.TempDir()
		if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		gitRepo(t, ws)
	})
	f := finished(t, turn(t, s, "edit", nil))
	if f.Status != event.StatusCompleted || f.Change == nil || f.Change.Files != 2 || f.Change.State != event.ChangePending {
		t.Fatalf("child ended %s (%s) with change %+v", f.Status, f.Reason, f.Change)
	}
	if got, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(got) != "a\n" {
		t.Fatalf("the person's tree was written before review: %q", got)
	}
	if _, err := os.Stat(filepath.Join(ws, "made.txt")); err == nil {
		t.Fatal("the command's file reached the person's tree before review")
	}
	rv, err := s.Review(f.Agent)
	if err != nil || len(rv.Files) != 2 {
		t.Fatalf("review %+v (err %v)", rv, err)
	}
	for i := range rv.Files {
		if _, err := s.ApplyChange(context.Background(), f.Agent, i, -1, ""); err != nil {
			t.Fatalf("apply %s: %v", rv.Files[i].Path, err)
		}
	}
	a, _ := os.ReadFile(filepath.Join(ws, "a.txt"))
	made, _ := os.ReadFile(filepath.Join(ws, "made.txt"))
	if string(a) != "a by the contained child\n" || string(made) != "made in the container\n" {
		t.Fatalf("after review a.txt %q, made.txt %q", a, made)
	}
	assertNoContainersLeft(t)
}

// The key reaches the child's loop in the container and nothing else:
// a command there finds it in no environment, no command line and no
// process's memory, and the container has no network but loopback.
func TestContainerCommandsCannotReadTheKey(t *testing.T) {
	image, binary := engineOrSkip(t)
	const attack = `env; cat /proc/[0-9]*/environ /proc/[0-9]*/cmdline; echo; ls /sys/class/net; ` +
		`for p in /proc/[0-9]*; do while read range perms rest; do case $perms in r*) ;; *) continue ;; esac; ` +
		`s=$((0x${range%-*} / 4096)); e=$((0x${range#*-} / 4096)); ` +
		`busybox dd if=$p/mem bs=4096 skip=$s count=$((e - s)) 2>/dev/null; done < $p/maps; done | busybox grep -a -o -e 'sk-container-[a-z]*' -e 'hello-from-the-attack' | busybox sort -u`
	var out string
	var mu sync.Mutex
	srv := llmtest.NewServer(t, delegating("general-purpose", func(r *llmtest.Request, w *llmtest.Writer) {
		switch len(results(r)) {
		case 0:
			w.ToolCalls(llmtest.Call{ID: "c", Name: "run_command", Args: `{"command":` + quote(attack) + `}`})
		default:
			mu.Lock()
			out = strings.Join(results(r), "\n")
			mu.Unlock()
			w.Text("looked")
		}
	}))
	s := session(t, srv, image, binary, func(c *engine.Config) {
		c.Worktrees.Root = t.TempDir()
		if err := os.WriteFile(filepath.Join(c.Workspace, "README"), []byte("hi\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		gitRepo(t, c.Workspace)
	})
	f := finished(t, turn(t, s, "look", nil))
	if f.Status != event.StatusCompleted {
		t.Fatalf("child ended %s: %s", f.Status, f.Reason)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Contains(out, "sk-container-key") {
		t.Fatalf("a command in the container read the key:\n%s", out)
	}
	if !strings.Contains(out, "hello-from-the-attack") {
		t.Fatalf("the attack read no process's memory, so it proves nothing:\n%s", out)
	}
	if !strings.Contains(out, "\nlo\n") || strings.Contains(out, "eth0") {
		t.Fatalf("the container has a network:\n%s", out)
	}
	assertNoContainersLeft(t)
}

// quote is s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// A child's container has the CPU and memory limits of [runner.container]
// (the session gives 1 CPU and 512 MiB), read from its cgroup, v1 or v2.
func TestContainerLimits(t *testing.T) {
	image, binary := engineOrSkip(t)
	const look = `cat /sys/fs/cgroup/memory/memory.limit_in_bytes /sys/fs/cgroup/memory.max /sys/fs/cgroup/cpu/cpu.cfs_quota_us /sys/fs/cgroup/cpu.max 2>/dev/null`
	var out string
	var mu sync.Mutex
	srv := llmtest.NewServer(t, delegating("general-purpose", func(r *llmtest.Request, w *llmtest.Writer) {
		switch len(results(r)) {
		case 0:
			w.ToolCalls(llmtest.Call{ID: "c", Name: "run_command", Args: `{"command":` + quote(look) + `}`})
		default:
			mu.Lock()
			out = strings.Join(results(r), "\n")
			mu.Unlock()
			w.Text("looked")
		}
	}))
	s := session(t, srv, image, binary, func(c *engine.Config) {
		c.Worktrees.Root = t.TempDir()
		if err := os.WriteFile(filepath.Join(c.Workspace, "README"), []byte("hi\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		gitRepo(t, c.Workspace)
	})
	if f := finished(t, turn(t, s, "look", nil)); f.Status != event.StatusCompleted {
		t.Fatalf("child ended %s: %s", f.Status, f.Reason)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(out, "536870912") || !strings.Contains(out, "100000") {
		t.Fatalf("the container's cgroup does not hold 1 CPU and 512 MiB:\n%s", out)
	}
	assertNoContainersLeft(t)
}
