package container_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/child/container"
	"github.com/seed-e4e525a6/baton/engine/child/process"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// These tests run children in a real container engine: DOCKER_HOST names
// it (.ci/run starts Podman's API service) and BATON_TEST_IMAGE an image
// that holds /bin/sh (.ci/run imports one). Without an engine they skip
// and say so, unless BATON_REQUIRE_CONTAINERS is set (CI), where a
// missing engine fails them.

func TestMain(m *testing.M) {
	sandbox.Main()
	process.Main()
	// The static baton the tests built goes with them.
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		if buildDir != "" {
			_ = os.RemoveAll(buildDir)
		}
		os.Exit(code)
	}))
}

// testTimeout guards against hangs only; no test asserts on durations.
const testTimeout = 120 * time.Second

var (
	buildOnce sync.Once
	buildDir  string
	built     string
	buildErr  error
)

// engineOrSkip returns the image to run, and baton's static binary.
func engineOrSkip(t *testing.T) (image, binary string) {
	t.Helper()
	image = os.Getenv("BATON_TEST_IMAGE")
	if os.Getenv("DOCKER_HOST") == "" || image == "" {
		if os.Getenv("BATON_REQUIRE_CONTAINERS") != "" {
			t.Fatal("BATON_REQUIRE_CONTAINERS is set but DOCKER_HOST or BATON_TEST_IMAGE is not")
		}
		t.Skip("no container engine: set DOCKER_HOST and BATON_TEST_IMAGE (.ci/run does)")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "baton-static-")
		if err != nil {
			buildErr = err
			return
		}
		buildDir, built = dir, filepath.Join(dir, "baton")
		cmd := exec.Command("go", "build", "-o", built, "github.com/seed-e4e525a6/baton/cmd/baton")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = err
			built = string(out)
		}
	})
	if buildErr != nil {
		t.Fatalf("build a static baton: %v\n%s", buildErr, built)
	}
	return image, built
}

// session is a session whose children run in containers of image.
func session(t *testing.T, srv *llmtest.Server, image, binary string, edit func(*engine.Config)) *engine.Session {
	t.Helper()
	endpoint := llm.Config{APIKey: "sk-container-key", BaseURL: srv.URL}
	cfg := engine.Config{Client: llm.NewClient(endpoint), Endpoint: endpoint, Model: "m",
		Workspace: t.TempDir(), Mode: permission.Yolo, Runner: child.RunnerContainer,
		Container: container.Options{Image: image, Binary: binary, CPUs: 1, Memory: 512 << 20}}
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
func turn(t *testing.T, s *engine.Session, prompt string, see func(event.Event)) []event.Event {
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

// A reading child runs in a container: it reads the workspace through
// its read-only mount, runs a command there without a network, reaches
// the endpoint only through baton's relay, and the pane is told where it
// runs.
func TestReadingChildRunsInAContainer(t *testing.T) {
	image, binary := engineOrSkip(t)
	var commandOut string
	var mu sync.Mutex
	srv := llmtest.NewServer(t, delegating("Explore", func(r *llmtest.Request, w *llmtest.Writer) {
		switch len(results(r)) {
		case 0:
			w.ToolCalls(llmtest.Call{ID: "r", Name: "read_file", Args: `{"path":"notes.txt"}`})
		default:
			mu.Lock()
			commandOut = strings.Join(results(r), "\n")
			mu.Unlock()
			w.Text("the notes say hello")
		}
	}))
	s := session(t, srv, image, binary, func(c *engine.Config) {
		if err := os.WriteFile(filepath.Join(c.Workspace, "notes.txt"), []byte("hello from the host\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	evs := turn(t, s, "look", nil)
	f := finished(t, evs)
	if f.Status != event.StatusCompleted || f.Text != "the notes say hello" {
		t.Fatalf("child ended %s %q: %s", f.Status, f.Text, f.Reason)
	}
	if !strings.Contains(commandOut, "hello from the host") {
		t.Fatalf("the child did not read the workspace: %q", commandOut)
	}
	var placed *event.AgentPlaced
	for _, ev := range evs {
		if p, ok := ev.(event.AgentPlaced); ok {
			placed = &p
		}
	}
	if placed == nil || placed.Where != "container "+image || placed.Latency <= 0 {
		t.Fatalf("placed %+v", placed)
	}
	assertNoContainersLeft(t)
}

// A child in a container whose image does not exist ends failed at once
// with an error naming the image; the parent's turn goes on.
func TestMissingImageFailsNamingIt(t *testing.T) {
	_, binary := engineOrSkip(t)
	srv := llmtest.NewServer(t, delegating("Explore", func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("ran somewhere") }))
	s := session(t, srv, "baton-no-such-image:404", binary, nil)
	f := finished(t, turn(t, s, "look", nil))
	if f.Status != event.StatusFailed || !strings.Contains(f.Reason, `"baton-no-such-image:404"`) {
		t.Fatalf("child ended %s: %s", f.Status, f.Reason)
	}
}

// An engine that is not there ends the child failed with its address; it
// never runs on the host instead.
func TestUnreachableEngineFailsNamingIt(t *testing.T) {
	_, binary := engineOrSkip(t)
	srv := llmtest.NewServer(t, delegating("Explore", func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("ran somewhere") }))
	gone := "unix://" + filepath.Join(t.TempDir(), "no-engine.sock")
	s := session(t, srv, "baton-test:latest", binary, func(c *engine.Config) { c.Container.Host = gone })
	f := finished(t, turn(t, s, "look", nil))
	if f.Status != event.StatusFailed || !strings.Contains(f.Reason, gone) || f.Stats.Steps != 0 {
		t.Fatalf("child ended %s after %d steps: %s", f.Status, f.Stats.Steps, f.Reason)
	}
}

// A container killed under its child ends the child failed, with what it
// had reported, and it is removed.
func TestKilledContainerFailsTheChild(t *testing.T) {
	image, binary := engineOrSkip(t)
	srv := llmtest.NewServer(t, delegating("Explore", func(r *llmtest.Request, w *llmtest.Writer) {
		ids := ours(t)
		if len(ids) != 1 {
			w.Text(fmt.Sprintf("%d containers", len(ids)))
			return
		}
		if out, err := exec.Command("podman", "--url", os.Getenv("DOCKER_HOST"), "kill", ids[0]).CombinedOutput(); err != nil {
			w.Text("could not kill: " + string(out))
			return
		}
		w.Text("still here")
	}))
	s := session(t, srv, image, binary, nil)
	f := finished(t, turn(t, s, "look", nil))
	if f.Status != event.StatusFailed || !strings.Contains(f.Reason, "container") {
		t.Fatalf("child ended %s %q: %s", f.Status, f.Text, f.Reason)
	}
	assertNoContainersLeft(t)
}

// Stopping a child in a container ends it stopped, and its container
// goes.
func TestStoppedChildInAContainer(t *testing.T) {
	image, binary := engineOrSkip(t)
	var s *engine.Session
	asked := make(chan struct{}, 1)
	srv := llmtest.NewServer(t, delegating("Explore", func(r *llmtest.Request, w *llmtest.Writer) {
		select {
		case asked <- struct{}{}:
		default:
		}
		<-w.Context().Done() // answers only when the child is gone
	}))
	s = session(t, srv, image, binary, nil)
	evs := turn(t, s, "look", func(ev event.Event) {
		if st, ok := ev.(event.AgentStarted); ok {
			go func() { <-asked; _ = s.StopAgent(st.Agent) }()
		}
	})
	f := finished(t, evs)
	if f.Status != event.StatusCancelled {
		t.Fatalf("child ended %s: %s", f.Status, f.Reason)
	}
	assertNoContainersLeft(t)
}

// assertNoContainersLeft checks that every child's container was removed.
func assertNoContainersLeft(t *testing.T) {
	t.Helper()
	if ids := ours(t); len(ids) > 0 {
		t.Fatalf("containers left: %v", ids)
	}
}

// ours are the containers this test process's children run in, running
// or not (other batons and tests may share the engine).
func ours(t *testing.T) []string {
	out, err := exec.Command("podman", "--url", os.Getenv("DOCKER_HOST"), "ps", "-a", "-q", "--filter", "label=baton.pid="+strconv.Itoa(os.Getpid())).CombinedOutput()
	if err != nil {
		t.Errorf("podman ps: %v %s", err, out)
		return nil
	}
	return strings.Fields(string(out))
}

// Ending the session (baton's exit) stops a child in a container and
// removes its container before Close returns.
func TestSessionEndRemovesContainers(t *testing.T) {
	image, binary := engineOrSkip(t)
	asked := make(chan struct{}, 1)
	srv := llmtest.NewServer(t, delegating("Explore", func(r *llmtest.Request, w *llmtest.Writer) {
		select {
		case asked <- struct{}{}:
		default:
		}
		<-w.Context().Done()
	}))
	s := session(t, srv, image, binary, nil)
	if err := s.Submit("look"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-asked:
	case <-time.After(testTimeout):
		t.Fatal("the child never asked the endpoint")
	}
	if len(ours(t)) != 1 {
		t.Fatalf("containers %v, want the child's one", ours(t))
	}
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		for range s.Events() {
		}
	}()
	s.Close()
	<-drained
	assertNoContainersLeft(t)
}

// A session whose children run in containers, where the container runner
// cannot be offered (no image), fails the task call saying why; the child
// never runs on the host instead.
func TestNoContainerRunnerNeverFallsBackToTheHost(t *testing.T) {
	var childAsked bool
	var parentSaw string
	var mu sync.Mutex
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case !hasTool(r, child.TaskToolName):
			childAsked = true
			w.Text("ran on the host")
		case len(results(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "t", Name: child.TaskToolName, Args: `{"description":"work","prompt":"do the work","subagent_type":"Explore"}`})
		default:
			parentSaw = strings.Join(results(r), "\n")
			w.Text("parent done")
		}
	})
	s := session(t, srv, "", "", nil)
	turn(t, s, "look", nil)
	mu.Lock()
	defer mu.Unlock()
	if childAsked || !strings.Contains(parentSaw, "container runner, which is not available here ([runner.container] names no image); it does not run on this machine instead") {
		t.Fatalf("child ran: %v; the parent saw %q", childAsked, parentSaw)
	}
}
