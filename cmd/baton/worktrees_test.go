package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/child"
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
	return runInRepoWith(t, srv, nil, args...)
}

// runInRepoWith is runInRepo with more files committed (path: content).
func runInRepoWith(t *testing.T, srv *llmtest.Server, files map[string]string, args ...string) (runResult, string) {
	t.Helper()
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, "main.go"), "package main\n")
	for path, content := range files {
		writeFile(t, filepath.Join(ws, path), content)
	}
	for _, a := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "first"}} {
		if out, err := exec.Command("git", append([]string{"-C", ws}, a...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", a, err, out)
		}
	}
	home := t.TempDir()
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "OPENAI_BASE_URL=" + srv.URL, "XDG_STATE_HOME=" + filepath.Join(home, "state")}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), ws, args, env, strings.NewReader(""), &stdout, &stderr, nil)
	return runResult{code, stdout.String(), stderr.String(), ws}, ws
}

func TestRunHeadlessWorktrees(t *testing.T) {
	t.Parallel()
	const rewritten = "package main\n\nfunc main() {}\n"
	for _, tc := range []struct {
		mode, want string
		kept       bool
	}{{"keep", "package main\n", true}, {"apply", rewritten, false}, {"apply-unverified", rewritten, false}, {"discard", "package main\n", false}} {
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
			code := run(context.Background(), ws, []string{"worktrees"}, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(),
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
	t.Parallel()
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

// A project's verify command is a command the repository runs: in a
// folder not trusted it is withheld, never run on a child's change, and
// the run says so; trusted for the run (--trust), it runs.
func TestUntrustedProjectVerifyDoesNotRun(t *testing.T) {
	t.Parallel()
	project := map[string]string{".baton/config.toml": "[subagents]\nverify = \"touch pwned\"\n"}
	for _, trusted := range []bool{false, true} {
		t.Run(fmt.Sprint("trusted=", trusted), func(t *testing.T) {
			srv := llmtest.NewServer(t, isolatedWriter)
			args := []string{"-p", "add main", "--yolo", "--output-format", "json", "--worktrees", "keep"}
			if trusted {
				args = append(args, "--trust")
			}
			r, _ := runInRepoWith(t, srv, project, args...)
			if r.code != exitOK {
				t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
			}
			var res claudeResult
			if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || len(res.Worktrees) != 1 {
				t.Fatalf("result %+v, %v", res.Worktrees, err)
			}
			_, err := os.Lstat(filepath.Join(res.Worktrees[0].Path, "pwned"))
			ran := err == nil
			if ran != trusted {
				t.Fatalf("the project's verify command ran: %v (trusted %v)\nstderr: %s", ran, trusted, r.stderr)
			}
			if !trusted && !strings.Contains(r.stderr, "subagents.verify") {
				t.Errorf("the run does not say the project's verify command was withheld:\n%s", r.stderr)
			}
		})
	}
}

// --worktrees apply applies only what passed verification: a change that
// fails it leaves the tree as it was, the run exits 1, and the json
// result says why under merges; apply-unverified applies it all the same.
func TestRunHeadlessApplyRefusesAFailingChange(t *testing.T) {
	t.Parallel()
	const rewritten = "package main\n\nfunc main() {}\n"
	project := map[string]string{".baton/config.toml": "[subagents]\nverify = \"grep -q never main.go\"\n"}
	srv := llmtest.NewServer(t, isolatedWriter)
	r, ws := runInRepoWith(t, srv, project, "-p", "add main", "--yolo", "--trust", "--output-format", "json", "--worktrees", "apply")
	if r.code != exitFailed {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(ws, "main.go")); string(got) != "package main\n" {
		t.Fatalf("main.go = %q", got)
	}
	var res struct {
		Merges []child.Merge `json:"merges"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Merges) != 1 || !res.Merges[0].Failed || res.Merges[0].Reason != "no change passed its own verification" || len(res.Merges[0].Kept) != 1 {
		t.Fatalf("merges %+v", res.Merges)
	}
	if !strings.Contains(r.stderr, "--worktrees apply applied nothing, your tree is unchanged: no change passed its own verification") {
		t.Fatalf("stderr:\n%s", r.stderr)
	}

	srv = llmtest.NewServer(t, isolatedWriter)
	r, ws = runInRepoWith(t, srv, project, "-p", "add main", "--yolo", "--trust", "--output-format", "json", "--worktrees", "apply-unverified")
	if got, _ := os.ReadFile(filepath.Join(ws, "main.go")); r.code != exitOK || string(got) != rewritten {
		t.Fatalf("apply-unverified: exit %d, main.go = %q\nstderr: %s", r.code, got, r.stderr)
	}
}

// baton worktrees in a repository without kept worktrees says so; outside
// a repository, or with nowhere to keep worktrees (no HOME, no
// XDG_STATE_HOME), it says why and exits with a usage error.
func TestWorktreesListSaysWhyItIsEmptyOrRefused(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	if out, err := exec.Command("git", "-C", repo, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	top, err := filepath.EvalSymlinks(repo)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir string
		env       []string
		code      int
		stdout    string
		stderr    string
	}{
		{"none kept", repo, []string{"HOME=" + t.TempDir()}, exitOK, "no sub-agent worktrees kept for " + top + "\n", ""},
		{"not a repository", t.TempDir(), []string{"HOME=" + t.TempDir()}, exitUsage, "", "baton: worktrees: "},
		{"no home", repo, nil, exitUsage, "", "baton: worktrees: neither XDG_STATE_HOME nor HOME is set\n"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tc.dir, []string{"worktrees"}, append([]string{"PATH=" + os.Getenv("PATH")}, tc.env...),
			strings.NewReader(""), &stdout, &stderr, nil)
		if code != tc.code || stdout.String() != tc.stdout || !strings.HasPrefix(stderr.String(), tc.stderr) || (tc.stderr == "") != (stderr.Len() == 0) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %d, %q, %q", tc.name, code, stdout.String(), stderr.String(), tc.code, tc.stdout, tc.stderr)
		}
	}
}
