package process

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/goleak"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// fakeArg starts the test binary as a child process that breaks the
// protocol in the way the next argument names.
const fakeArg = "__fake_child"

func TestMain(m *testing.M) {
	sandbox.Main()
	if len(os.Args) > 2 && os.Args[1] == fakeArg {
		os.Exit(fakeChild(os.Args[2]))
	}
	announceSpare()
	Main()
	goleak.VerifyTestMain(m)
}

// SpareAnnounceEnv names a FIFO to which a spare started as this test
// binary writes its process id as it starts (TestSparesWaitBeforeTheModelAnswers).
const SpareAnnounceEnv = "BATON_TEST_SPARE_FIFO"

// announceSpare tells the FIFO of SpareAnnounceEnv, if set, that this
// process is a spare: it writes its process id and closes the FIFO.
func announceSpare() {
	fifo := os.Getenv(SpareAnnounceEnv)
	if fifo == "" || len(os.Args) < 3 || os.Args[1] != Subcommand || !strings.HasPrefix(os.Args[2], sparePrefix) {
		return
	}
	if f, err := os.OpenFile(fifo, os.O_WRONLY|os.O_APPEND, 0); err == nil {
		fmt.Fprintln(f, os.Getpid())
		_ = f.Close()
	}
}

// fakeChild reads its spec like a child, then misbehaves.
func fakeChild(mode string) int {
	name := os.Args[len(os.Args)-1]
	if mode == "crash-spare" && strings.HasPrefix(name, sparePrefix) {
		return 3 // a spare that dies before its spec comes
	}
	lines := newLineReader(os.Stdin)
	first, err := lines.next()
	if err != nil {
		return 2
	}
	var d down
	if json.Unmarshal(first, &d) != nil || d.Spec == nil {
		return 2
	}
	out := &lineWriter{w: os.Stdout}
	said := func(ev event.Event) {
		data, _ := event.MarshalEvent(ev)
		_ = out.write(up{Event: data})
	}
	self := d.Spec.Meta
	if mode == "whoami" || mode == "crash-spare" {
		// Says which process it is: a spare's name, or its child's id.
		_ = out.write(up{Result: &agent.Result{Status: event.StatusCompleted, Text: name}})
		return 0
	}
	said(event.MessageDone{Meta: self, Text: "what I had found"})
	switch mode {
	case "garbage":
		fmt.Fprintln(os.Stdout, "this is not a line of the protocol")
	case "impostor":
		said(event.MessageDone{Meta: event.Meta{Agent: event.MainAgent}, Text: "I am the main agent now"})
	case "approval":
		said(event.ApprovalRequested{Meta: self})
	case "status":
		_ = out.write(up{Result: &agent.Result{Status: event.StatusDenied, Text: "not a loop's ending"}})
	case "exit":
		fmt.Fprintln(os.Stderr, "boom: the fake child gave up")
		return 3
	}
	// Waits for baton to give up on it: baton kills it.
	for {
		if _, err := lines.next(); err != nil {
			return 0
		}
	}
}

// start runs a child with the runner against a fake child of mode and
// returns its ending and the events baton took from it.
func start(t *testing.T, mode string) (child.Ending, []event.Event) {
	t.Helper()
	return runChild(t, fakeRunner(t, mode), "explore-1")
}

// fakeRunner is a runner whose child processes are fake children of mode.
func fakeRunner(t *testing.T, mode string) *Runner {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return New(Options{Command: []string{exe, fakeArg, mode}, Endpoint: llm.Config{BaseURL: "http://127.0.0.1:9/v1"}})
}

// runChild runs the child id with r until it ends, and returns its ending
// and the events baton took from it.
func runChild(t *testing.T, r *Runner, id event.AgentID) (child.Ending, []event.Event) {
	t.Helper()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var took []event.Event
	meta := event.Meta{Agent: id, Parent: event.MainAgent, Number: 1, AgentType: "Explore", Description: "look"}
	job := child.Job{
		Spec:   child.Spec{Meta: meta, Model: "m", MaxSteps: 3, Timeout: time.Minute, Workspace: ws.Root()},
		Prompt: "look", History: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleSystem, Content: "sys"}},
		Workspace: ws, Loop: child.Loop{Catalog: llm.NewCatalog(nil)},
		Link: child.Link{
			Emit:   func(ev event.Event) { mu.Lock(); took = append(took, ev); mu.Unlock() },
			Record: func(openai.ChatCompletionMessage) {},
		},
	}
	h, err := r.Start(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-h.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("the child did not end")
	}
	mu.Lock()
	defer mu.Unlock()
	return h.Ending(), took
}

// A child process that breaks the protocol (garbage, an event about
// another agent, a card of its own, a status no loop ends with) or dies
// ends failed, with what it had said so far, and never hangs baton.
func TestABrokenChildProcessFailsWithWhatItHadSaid(t *testing.T) {
	for mode, reason := range map[string]string{
		"garbage":  "cannot take",
		"impostor": `about agent "main"`,
		"approval": `kind "approval_requested"`,
		"status":   `status "denied"`,
		"exit":     "boom: the fake child gave up",
	} {
		t.Run(mode, func(t *testing.T) {
			end, took := start(t, mode)
			if end.Status != event.StatusFailed || !strings.Contains(end.Reason, reason) || end.Text != "what I had found" {
				t.Fatalf("ending %+v, want failed because %q with the partial text", end.Result, reason)
			}
			for _, ev := range took {
				if ev.EventMeta().Agent != "explore-1" {
					t.Fatalf("baton took %#v from the child", ev)
				}
			}
		})
	}
}
