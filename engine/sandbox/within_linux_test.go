package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInConfinesToAnotherRoot: a child working in a worktree inside
// baton's hidden state folder writes there and nowhere else; the
// person's workspace becomes read-only to it; the transcripts beside the
// worktree stay hidden.
func TestInConfinesToAnotherRoot(t *testing.T) {
	b := newBox(t)
	state := filepath.Join(b.home, ".local", "state", "baton")
	wt := filepath.Join(state, "worktrees", "proj", "s1", "child-1")
	sessions := filepath.Join(state, "sessions")
	for _, d := range []string{wt, sessions, filepath.Join(state, "worktrees", "proj", "s1", "child-2")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(sessions, "transcript.jsonl"), "SECRET TRANSCRIPT")
	write(t, filepath.Join(b.ws, "mine.txt"), "person's file")
	p := b.policy
	p.Hidden = append(p.Hidden, state)
	child := p.In(wt)

	out, code := b.run(t, child, "echo x > "+wt+"/new.txt && cat "+b.ws+"/mine.txt && echo ok")
	if code != 0 || !strings.Contains(out, "person's file") || !strings.Contains(out, "ok") {
		t.Fatalf("in the worktree: exit %d, %q", code, out)
	}
	if out, code := b.run(t, child, "echo x > "+b.ws+"/mine.txt"); code == 0 {
		t.Fatalf("wrote the person's workspace: %q", out)
	}
	for _, script := range []string{"cat " + sessions + "/transcript.jsonl", "ls " + state + "/worktrees/proj/s1/child-2"} {
		if out, _ := b.run(t, child, script); strings.Contains(out, "SECRET") || !strings.Contains(out, "denied") {
			t.Errorf("%s: %q; want the kernel to refuse", script, out)
		}
	}
	// Without In the worktree is hidden with the rest of the state folder.
	if out, code := b.run(t, p, "echo x > "+wt+"/new.txt"); code == 0 {
		t.Fatalf("the hidden state folder was writable without In: %q", out)
	}
}
