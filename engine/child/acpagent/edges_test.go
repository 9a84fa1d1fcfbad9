package acpagent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// An agent that sends what baton has no tool for, and what a broken or
// hostile agent would, gets clear answers and cannot block or confuse
// baton: its calls are put to the person as the baton calls they amount
// to, requests about another session or with bad params are refused, a
// FIFO, a folder and a binary file are not read, and what baton cannot
// read of its updates is shown once in the pane.
func TestSloppyACPChildIsAnsweredClearly(t *testing.T) {
	h, p, _ := startJob(t, context.Background(), "sloppy", func(*event.ApprovalRequest) event.Answer { return event.Answer{Decision: event.Allow} },
		func(job *child.Job) {
			root := job.Workspace.Root()
			writeTest(t, filepath.Join(root, "three.txt"), "one\ntwo\nthree\n")
			writeTest(t, filepath.Join(root, "blob.bin"), "\xff\xfe\x00binary")
			if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
				t.Fatal(err)
			}
		})
	end := ending(t, h)
	if end.Status != event.StatusCompleted {
		t.Fatalf("ending %s: %s", end.Status, end.Reason)
	}
	var obs map[string]string
	if err := json.Unmarshal([]byte(end.Text), &obs); err != nil {
		t.Fatalf("the result is not the agent's report: %q", end.Text)
	}
	for k, says := range map[string]string{
		"command list": `"optionId":"yes"`, "command args": `"optionId":"yes"`, "fetch": `"optionId":"yes"`, "other": `"optionId":"yes"`,
		"no allow option": "error: the request offers no option that allows the call",
		"other session":   `error: no session s2`, "bad permission": "error: invalid params", "bad read": "error: invalid params",
		"bad write": "error: invalid params", "lines": `{"content":"two\n"}`, "from line": `{"content":"three\n"}`,
		"folder": "is not a regular file", "fifo": "is not a regular file", "binary": "is not UTF-8 text",
		"missing": "nowhere.txt does not exist", "outside write": "error: ",
	} {
		if !strings.Contains(obs[k], says) {
			t.Errorf("%s: the agent got %q, want %q", k, obs[k], says)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var cards []string
	for _, c := range p.cards {
		cards = append(cards, c.Tool+" "+c.Args)
	}
	want := []string{`run_command {"command":"git push"}`, `run_command {"command":"make -j 4"}`, `web_fetch {"url":"https://example.com/doc"}`,
		`acp_tool {"title":"Ponder the design"}`, `run_command {"command":"ls"}`}
	if strings.Join(cards, "\n") != strings.Join(want, "\n") {
		t.Errorf("cards:\n%s\nwant\n%s", strings.Join(cards, "\n"), strings.Join(want, "\n"))
	}
	var started, finished, notices []string
	var thought, plan string
	for _, ev := range p.events {
		switch e := ev.(type) {
		case event.ToolStarted:
			started = append(started, e.Name)
		case event.ToolFinished:
			finished = append(finished, e.CallID+"="+e.Summary+":"+e.Output)
		case event.ReasoningDelta:
			thought += e.Text
		case event.TodosUpdated:
			plan = string(e.Todos[0].Status) + " " + e.Todos[0].Content
		case event.Notice:
			notices = append(notices, e.Text)
		case event.TextDelta:
			if strings.Contains(e.Text, "another session") {
				t.Error("an update for another session reached the pane")
			}
		}
	}
	if got := strings.Join(started, ","); got != "grep,web_fetch,other,think" {
		t.Errorf("calls started as %s", got)
	}
	if got := strings.Join(finished, ","); !strings.HasPrefix(got, "k0=completed:found 3 matches,k1=failed:") {
		t.Errorf("calls finished as %s", got)
	}
	if thought != "considering" || plan != "pending wait on review" {
		t.Errorf("thoughts %q, plan %q", thought, plan)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "a session update baton cannot read") {
		t.Errorf("notices %q; want one about the update baton cannot read", notices)
	}
}

// How an agent's turn stopped is the child's status, with the reason in
// words; what it said before is kept.
func TestACPStopReasonsAreStatuses(t *testing.T) {
	for _, c := range []struct {
		mode   string
		status event.Status
		reason string
	}{
		{"max_tokens", event.StatusFailed, "the ACP agent ran out of tokens"},
		{"refusal", event.StatusFailed, "the ACP agent refused the task"},
		{"max_turn_requests", event.StatusMaxSteps, "the ACP agent reached its own turn limit"},
		{"teleported", event.StatusFailed, `the ACP agent stopped with "teleported"`},
	} {
		t.Run(c.mode, func(t *testing.T) {
			h, _, _ := start(t, context.Background(), c.mode)
			end := ending(t, h)
			if end.Status != c.status || !strings.HasPrefix(end.Reason, c.reason) || end.Text != "got partway" {
				t.Errorf("ending %s %q: %s; want %s: %s", end.Status, end.Text, end.Reason, c.status, c.reason)
			}
		})
	}
}

// An agent baton cannot hold a session with fails the child saying why:
// a newer protocol, a sign-in it needs, no session id.
func TestACPChildThatCannotStartSaysWhy(t *testing.T) {
	for mode, says := range map[string]string{
		"newer":      "it speaks ACP version 2; baton speaks 1",
		"signed-out": "it needs signing in first (Log in with Google); sign it in once outside baton",
		"no-session": "session/new answered without a session id",
	} {
		t.Run(mode, func(t *testing.T) {
			h, _, _ := start(t, context.Background(), mode)
			if end := ending(t, h); end.Status != event.StatusFailed || !strings.Contains(end.Reason, says) {
				t.Errorf("ending %s: %q; want failed saying %q", end.Status, end.Reason, says)
			}
		})
	}
}

func TestACPRunnerRefusesWhatItCannotStart(t *testing.T) {
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	job := child.Job{Spec: child.Spec{Type: agenttypes.Type{Name: "plain"}}, Workspace: ws}
	if _, err := New(Options{}).Start(context.Background(), job); err == nil || !strings.Contains(err.Error(), `agent type "plain" names no ACP agent`) {
		t.Errorf("a type without an agent: %v", err)
	}
	job.Spec.Type.ACP = &agenttypes.ACPAgent{Command: filepath.Join(ws.Root(), "no-such-agent")}
	if _, err := New(Options{}).Start(context.Background(), job); err == nil || !strings.Contains(err.Error(), "start the ACP agent") {
		t.Errorf("a missing command: %v", err)
	}
}

// Messages wait for the turn after this one, up to a bound; a control
// the runner does not know is refused.
func TestACPChildMessagesAreBounded(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	h, p, _ := start(t, ctx, "cancellable")
	waitText(t, p, "working")
	if err := h.Control(child.Control{Kind: "teleport"}); err == nil || !strings.Contains(err.Error(), `unknown control "teleport"`) {
		t.Errorf("an unknown control: %v", err)
	}
	var err error
	for i := 0; i <= maxFollowUps && err == nil; i++ {
		err = h.Control(child.Control{Kind: child.Tell, Text: "note"})
	}
	if err == nil || !strings.Contains(err.Error(), "it already has 16 messages waiting") {
		t.Errorf("message %d: %v", maxFollowUps+1, err)
	}
	cancel(context.Canceled)
	ending(t, h)
}
