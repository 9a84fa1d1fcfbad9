package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// isolatedWriter scripts a main agent that delegates one write to a
// worktree child, which rewrites main.go.
func isolatedWriter(req *llmtest.Request, w *llmtest.Writer) {
	switch {
	case !slices.Contains(req.ToolNames(), "task") && !req.HasToolResult("main.go"):
		w.ToolCalls(llmtest.Call{Name: "write_file", Args: `{"path":"main.go","content":"package main\n\nfunc main() {}\n"}`})
	case !slices.Contains(req.ToolNames(), "task"):
		w.Text("rewrote main.go")
	case req.Index == 0:
		w.ToolCalls(llmtest.Call{Name: "task",
			Args: `{"description":"add main","prompt":"add func main","subagent_type":"general-purpose","isolation":"worktree"}`})
	default:
		w.Text("delegated")
	}
}

// runInRepo is runIn in a git repository, with a state folder of its own;
// it returns the workspace too.
func runInRepo(t *testing.T, srv *llmtest.Server, args ...string) (runResult, string) {
	t.Helper()
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, "main.go"), "package main\n")
	for _, a := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "first"}} {
		if out, err := exec.Command("git", append([]string{"-C", ws}, a...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", a, err, out)
		}
	}
	t.Chdir(ws)
	home := t.TempDir()
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "OPENAI_BASE_URL=" + srv.URL, "XDG_STATE_HOME=" + filepath.Join(home, "state")}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, env, strings.NewReader(""), &stdout, &stderr, nil)
	return runResult{code, stdout.String(), stderr.String()}, ws
}

func TestRunHeadlessWorktrees(t *testing.T) {
	const rewritten = "package main\n\nfunc main() {}\n"
	for _, tc := range []struct {
		mode, want string
		kept       bool
	}{{"keep", "package main\n", true}, {"apply", rewritten, false}, {"discard", "package main\n", false}} {
		t.Run(tc.mode, func(t *testing.T) {
			srv := llmtest.NewServer(t, isolatedWriter)
			r, ws := runInRepo(t, srv, "-p", "add main", "--yolo", "--output-format", "json", "--worktrees", tc.mode)
			if r.code != exitOK {
				t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
			}
			if got, _ := os.ReadFile(filepath.Join(ws, "main.go")); string(got) != tc.want {
				t.Fatalf("main.go = %q, want %q", got, tc.want)
			}
			var res claudeResult
			if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
				t.Fatal(err)
			}
			if !tc.kept {
				if len(res.Worktrees) != 0 || strings.Contains(r.stderr, "kept worktree") {
					t.Fatalf("worktrees %+v\n%s", res.Worktrees, r.stderr)
				}
				return
			}
			if len(res.Worktrees) != 1 || !strings.HasPrefix(res.Worktrees[0].Branch, "baton/") {
				t.Fatalf("json worktrees %+v", res.Worktrees)
			}
			k := res.Worktrees[0]
			if !strings.Contains(r.stderr, "kept worktree "+k.Path+" on branch "+k.Branch) || strings.HasPrefix(k.Path, ws) {
				t.Fatalf("stderr:\n%s", r.stderr)
			}
			if got, _ := os.ReadFile(filepath.Join(k.Path, "main.go")); string(got) != rewritten {
				t.Fatalf("kept worktree main.go = %q", got)
			}
			if out, err := exec.Command("git", "-C", ws, "diff", "HEAD", k.Branch, "--", "main.go").CombinedOutput(); err != nil || !strings.Contains(string(out), "+func main() {}") {
				t.Fatalf("branch %s: %v %s", k.Branch, err, out)
			}
			var list bytes.Buffer
			code := run(context.Background(), []string{"worktrees"}, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(),
				"XDG_STATE_HOME=" + stateOf(k.Path)}, strings.NewReader(""), &list, &list, nil)
			if code != exitOK || !strings.Contains(list.String(), k.Branch) || !strings.Contains(list.String(), "kept") {
				t.Fatalf("baton worktrees: %d\n%s", code, list.String())
			}
		})
	}
}

// stateOf is the XDG_STATE_HOME a worktree path lies under:
// <state>/baton/worktrees/<project>/<session>/<child>.
func stateOf(path string) string {
	for range 5 {
		path = filepath.Dir(path)
	}
	return path
}

func TestWorktreesFlagErrors(t *testing.T) {
	for args, want := range map[string]string{
		"-p x --worktrees merge": "--worktrees: expected apply, apply-unverified, keep or discard",
		"--worktrees apply":      "--worktrees only applies to headless runs",
	} {
		r := runIn(t, context.Background(), nil, "", strings.Fields(args)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: exit %d, stderr %s", args, r.code, r.stderr)
		}
	}
}
