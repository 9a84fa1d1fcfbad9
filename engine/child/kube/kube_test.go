package kube_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/child/kube"
	"github.com/seed-e4e525a6/baton/engine/child/kube/cluster"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "run" {
		switch {
		case os.Getenv(podmanBridgeEnv) != "":
			os.Exit(podmanBridge(os.Args[1:]))
		case os.Getenv(clusterBridgeEnv) != "":
			os.Exit(cluster.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		case os.Getenv(holdingBridgeEnv) != "":
			os.Exit(holdingBridge(os.Args[1:]))
		}
	}
	// The image the podman tests imported goes with them, so runs leave
	// no untagged image behind.
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		if imageName != "" {
			_ = podman("rmi", "--force", imageName).Run()
		}
		os.Exit(code)
	}))
}

// clusterBridgeEnv makes this test binary baton-kube itself
// (cluster.Main), as make build builds it.
const clusterBridgeEnv = "BATON_TEST_KUBE_BRIDGE"

// testTimeout guards against hangs only; no test asserts on durations.
const testTimeout = 180 * time.Second

// gitRepo makes dir a repository with one commit of files.
func gitRepo(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "init"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// blob is an incompressible file of 1.5 MiB in every test's workspace:
// its bundle is larger than one ConfigMap holds, so it reaches the pod
// in parts.
var blob = func() []byte {
	b := make([]byte, 3<<19)
	_, _ = rand.Read(b)
	return b
}()

const blobName = "blob.bin"

// session is a session whose children run through the kubernetes runner
// with image and the baton-kube at bridge.
func session(t *testing.T, srv *llmtest.Server, image, bridge string, edit func(*engine.Config)) *engine.Session {
	t.Helper()
	endpoint := llm.Config{APIKey: "sk-kube-key", BaseURL: srv.URL}
	ws := t.TempDir()
	gitRepo(t, ws, map[string]string{"notes.txt": "hello from the host\n", blobName: string(blob)})
	cfg := engine.Config{Client: llm.NewClient(endpoint), Endpoint: endpoint, Model: "m",
		Workspace: ws, Mode: permission.Yolo, Runner: child.RunnerKubernetes,
		Worktrees:  child.WorktreeConfig{Root: t.TempDir()},
		Kubernetes: kube.Options{Image: image, Bridge: bridge, Namespace: "default"}}
	if edit != nil {
		edit(&cfg)
	}
	s, err := engine.NewSession(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// turn submits prompt and returns every event until the main turn ends.
func turn(t *testing.T, s *engine.Session, prompt string) []event.Event {
	t.Helper()
	return turnSeeing(t, s, prompt, nil)
}

// turnSeeing is turn, handing each event to see as it comes.
func turnSeeing(t *testing.T, s *engine.Session, prompt string, see func(event.Event)) []event.Event {
	t.Helper()
	if err := s.Submit(prompt); err != nil {
		t.Fatal(err)
	}
	var evs []event.Event
	deadline := time.After(testTimeout)
	for {
		select {
		case ev, ok := <-s.Events():
			if !ok {
				t.Fatal("the session ended before the turn did")
			}
			evs = append(evs, ev)
			if see != nil {
				see(ev)
			}
			if e, ok := ev.(event.TurnEnded); ok && e.Agent == event.MainAgent {
				return evs
			}
		case <-deadline:
			t.Fatal("the turn did not end")
		}
	}
}

// delegating is an endpoint whose main agent delegates one task of
// agentType and whose child does what childTurn says.
func delegating(agentType string, childTurn func(r *llmtest.Request, w *llmtest.Writer)) func(r *llmtest.Request, w *llmtest.Writer) {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case !hasTool(r, child.TaskToolName):
			childTurn(r, w)
		case len(results(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "t", Name: child.TaskToolName, Args: `{"description":"work","prompt":"do the work","subagent_type":"` + agentType + `"}`})
		default:
			w.Text("parent done")
		}
	}
}

func hasTool(r *llmtest.Request, name string) bool {
	for _, n := range r.ToolNames() {
		if n == name {
			return true
		}
	}
	return false
}

func results(r *llmtest.Request) []string {
	var out []string
	for _, m := range r.Body.Messages {
		if m.Role == "tool" {
			out = append(out, m.Content)
		}
	}
	return out
}

func finished(t *testing.T, evs []event.Event) event.AgentFinished {
	t.Helper()
	var got []event.AgentFinished
	for _, ev := range evs {
		if f, ok := ev.(event.AgentFinished); ok {
			got = append(got, f)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d children finished", len(got))
	}
	return got[0]
}

// A reading child runs in the Job's pod template under podman kube play:
// the image's baton checks the workspace out of the ConfigMap's bundle,
// reads its spec from the Secret, reaches the endpoint, answers baton's
// question over its input, and its events reach the pane through the
// log, with where it ran.
func TestReadingChildRunsInThePodTemplate(t *testing.T) {
	image, bridge := podmanOrSkip(t)
	var read string
	srv := llmtest.NewServer(t, delegating("Explore", func(r *llmtest.Request, w *llmtest.Writer) {
		switch len(results(r)) {
		case 0:
			w.ToolCalls(llmtest.Call{ID: "r", Name: "read_file", Args: `{"path":"notes.txt"}`})
		default:
			read = strings.Join(results(r), "\n")
			w.Text("the notes say hello")
		}
	}))
	s := session(t, srv, image, bridge, nil)
	evs := turn(t, s, "look")
	f := finished(t, evs)
	if f.Status != event.StatusCompleted || f.Text != "the notes say hello" {
		t.Fatalf("child ended %s %q: %s", f.Status, f.Text, f.Reason)
	}
	if !strings.Contains(read, "hello from the host") {
		t.Fatalf("the child did not read the workspace: %q", read)
	}
	var placed *event.AgentPlaced
	for _, ev := range evs {
		if p, ok := ev.(event.AgentPlaced); ok {
			placed = &p
		}
	}
	if placed == nil || !strings.HasPrefix(placed.Where, "podman baton-") {
		t.Fatalf("placed %+v", placed)
	}
}

// A writing child's change comes back from the pod as a bundle in the
// log's last line and waits in its worktree for the person's review,
// like any worktree child's; the person's tree is untouched. Its
// commands cannot read the Secret holding the key.
func TestWritingChildsChangeComesBackForReview(t *testing.T) {
	image, bridge := podmanOrSkip(t)
	var peek string
	srv := llmtest.NewServer(t, delegating("general-purpose", func(r *llmtest.Request, w *llmtest.Writer) {
		switch len(results(r)) {
		case 0:
			// The Secret's file holds the key: the child's commands
			// must not read it.
			// The workspace came in parts: the blob is whole.
			w.ToolCalls(llmtest.Call{ID: "c", Name: "run_command", Args: `{"command":"cat /baton/spec/spec.json; echo; env; busybox sha256sum ` + blobName + `"}`})
		case 1:
			peek = results(r)[0]
			w.ToolCalls(llmtest.Call{ID: "w", Name: "write_file", Args: `{"path":"notes.txt","content":"hello from the pod\n"}`})
		default:
			w.Text("wrote it")
		}
	}))
	var ws string
	s := session(t, srv, image, bridge, func(c *engine.Config) {
		c.Worktrees.Isolation = "worktree"
		ws = c.Workspace
	})
	f := finished(t, turn(t, s, "write"))
	if f.Status != event.StatusCompleted {
		t.Fatalf("child ended %s: %s", f.Status, f.Reason)
	}
	if f.Change == nil || f.Change.State != event.ChangePending || f.Change.Worktree == "" {
		t.Fatalf("change = %+v, want one pending review in a worktree", f.Change)
	}
	got, err := os.ReadFile(filepath.Join(f.Change.Worktree, "notes.txt"))
	if err != nil || string(got) != "hello from the pod\n" {
		t.Fatalf("worktree's notes.txt = %q, %v", got, err)
	}
	mine, _ := os.ReadFile(filepath.Join(ws, "notes.txt"))
	if string(mine) != "hello from the host\n" {
		t.Fatalf("the person's tree changed: %q", mine)
	}
	if strings.Contains(peek, "sk-kube-key") || !strings.Contains(peek, "spec.json") {
		t.Fatalf("a command in the pod read the Secret, or did not run: %q", peek)
	}
	if sum := sha256.Sum256(blob); !strings.Contains(peek, hex.EncodeToString(sum[:])+"  "+blobName) {
		t.Fatalf("the pod's %s is not the host's (sha256 %x): %q", blobName, sum, peek)
	}
	if refs, _ := exec.Command("git", "-C", ws, "for-each-ref", "refs/baton/").Output(); len(refs) != 0 {
		t.Errorf("refs left: %s", refs)
	}
}

// clusterBridge makes this test binary the runner's baton-kube.
func clusterBridge(t *testing.T) string {
	t.Helper()
	t.Setenv(clusterBridgeEnv, "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// A cluster that cannot be reached ends the child failed at once, with
// an error naming the kube context; it never runs on the host instead.
func TestUnreachableClusterFailsNamingTheContext(t *testing.T) {
	kubeconfig := filepath.Join(t.TempDir(), "config")
	const config = `apiVersion: v1
kind: Config
clusters:
- name: gone
  cluster: {server: "https://127.0.0.1:1"}
contexts:
- name: gone-ctx
  context: {cluster: gone, user: u, namespace: agents}
users:
- name: u
  user: {token: t}
current-context: gone-ctx
`
	if err := os.WriteFile(kubeconfig, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", kubeconfig)
	var ran bool
	srv := llmtest.NewServer(t, delegating("Explore", func(_ *llmtest.Request, w *llmtest.Writer) {
		ran = true
		w.Text("ran somewhere")
	}))
	s := session(t, srv, "reg/baton:1", clusterBridge(t), func(c *engine.Config) { c.Kubernetes.Namespace = "" })
	f := finished(t, turn(t, s, "look"))
	if f.Status != event.StatusFailed || !strings.Contains(f.Reason, `kube context "gone-ctx"`) || f.Stats.Steps != 0 || ran {
		t.Fatalf("child ended %s after %d steps (ran %v): %s", f.Status, f.Stats.Steps, ran, f.Reason)
	}
}

// Without baton-kube the child fails saying how to get it.
func TestMissingBridgeFailsSayingSo(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is needed")
	}
	t.Setenv("PATH", filepath.Dir(git)) // git's folder holds no baton-kube
	srv := llmtest.NewServer(t, delegating("Explore", func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("ran somewhere") }))
	s := session(t, srv, "reg/baton:1", "", nil)
	f := finished(t, turn(t, s, "look"))
	if f.Status != event.StatusFailed || !strings.Contains(f.Reason, "needs baton-kube next to baton or on PATH") {
		t.Fatalf("child ended %s: %s", f.Status, f.Reason)
	}
}
