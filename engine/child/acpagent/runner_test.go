package acpagent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/goleak"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/rules"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEnv); mode != "" {
		os.Exit(fakeAgent(mode))
	}
	goleak.VerifyTestMain(m)
}

// testTimeout guards against hangs only; no test asserts on durations.
const testTimeout = 60 * time.Second

// pane is what the session sees of a child: its events, its recorded
// messages and its cards, answered by answer.
type pane struct {
	mu       sync.Mutex
	events   []event.Event
	cards    []*event.ApprovalRequest
	recorded []openai.ChatCompletionMessage
	seen     chan event.Event
	answer   func(*event.ApprovalRequest) event.Answer
}

func (p *pane) emit(ev event.Event) {
	p.mu.Lock()
	p.events = append(p.events, ev)
	p.mu.Unlock()
	if a, ok := ev.(event.ApprovalRequested); ok {
		p.mu.Lock()
		p.cards = append(p.cards, a.Request)
		p.mu.Unlock()
		a.Request.Answer(p.answer(a.Request))
	}
	select {
	case p.seen <- ev:
	default:
	}
}

// start runs a child of an acp type whose agent is this test binary in
// mode, in a fresh workspace, under the person's rules deny.
func start(t *testing.T, ctx context.Context, mode string, deny ...string) (child.Handle, *pane, string) {
	t.Helper()
	return startWith(t, ctx, mode, func(*event.ApprovalRequest) event.Answer { return event.Answer{Decision: event.Allow} }, deny...)
}

// startWith is start with the person's answer to every card.
func startWith(t *testing.T, ctx context.Context, mode string, answer func(*event.ApprovalRequest) event.Answer, deny ...string) (child.Handle, *pane, string) {
	t.Helper()
	return startJob(t, ctx, mode, answer, nil, deny...)
}

// startJob is startWith with the job changed by tweak (nil: as it is)
// before the child starts.
func startJob(t *testing.T, ctx context.Context, mode string, answer func(*event.ApprovalRequest) event.Answer, tweak func(*child.Job), deny ...string) (child.Handle, *pane, string) {
	t.Helper()
	root := t.TempDir()
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	var standing []event.PermissionRule
	for _, r := range deny {
		standing = append(standing, event.PermissionRule{Kind: "deny", Rule: r, Source: "user config"})
	}
	policy, err := permission.New(permission.Ask, ws.Root(), nil, standing)
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	meta := event.Meta{Agent: "c1", Parent: event.MainAgent, Number: 1, AgentType: "gem", Description: "try it"}
	p := &pane{seen: make(chan event.Event, 1024), answer: answer}
	typ := agenttypes.Type{Name: "gem", Runner: agenttypes.RunnerACP,
		ACP: &agenttypes.ACPAgent{Command: self, Args: []string{"-test.run=^$"}, Env: map[string]string{fakeEnv: mode, "FAKE_OWN_SETTING": "its own"}}}
	job := child.Job{Spec: child.Spec{Meta: meta, Type: typ, Workspace: ws.Root()}, Prompt: "do the thing", Workspace: ws,
		Link: child.Link{Emit: p.emit, Record: func(m openai.ChatCompletionMessage) {
			p.mu.Lock()
			p.recorded = append(p.recorded, m)
			p.mu.Unlock()
		}, Authorize: policy.For(permission.Who{Meta: meta, Emit: p.emit}, permission.NewGrants(rules.Set{}))}}
	if tweak != nil {
		tweak(&job)
	}
	h, err := New(Options{Version: "test"}).Start(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	return h, p, ws.Root()
}

// ending waits for the child's end.
func ending(t *testing.T, h child.Handle) child.Ending {
	t.Helper()
	select {
	case <-h.Done():
		return h.Ending()
	case <-time.After(testTimeout):
		t.Fatal("the ACP child did not end")
	}
	return child.Ending{}
}

func TestACPChildWorksThroughBatonsGuardsAndRules(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-person-openai")
	t.Setenv("ANTHROPIC_API_KEY", "sk-person-anthropic")
	t.Setenv("GITHUB_TOKEN", "ghp-person")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "aws-person")
	h, p, root := start(t, context.Background(), "work", "run_command(rm:*)", "read_file(.env)")
	outside := filepath.Join(filepath.Dir(root), "secret.txt")
	writeTest(t, outside, "outside secret")
	t.Cleanup(func() { _ = os.Remove(outside) })
	writeTest(t, filepath.Join(root, ".env"), "TOKEN=x")
	if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	end := ending(t, h)
	if end.Status != event.StatusCompleted {
		t.Fatalf("ending %s: %s", end.Status, end.Reason)
	}
	var obs map[string]string
	if err := json.Unmarshal([]byte(end.Text), &obs); err != nil {
		t.Fatalf("the result is not the agent's last message: %q", end.Text)
	}
	want := map[string]string{
		"edit": `{"outcome":{"outcome":"selected","optionId":"yes"}}`, "write": "{}", "read": `{"content":"twice\n"}`,
		"env OPENAI_API_KEY": "", "env ANTHROPIC_API_KEY": "", "env GITHUB_TOKEN": "", "env AWS_SECRET_ACCESS_KEY": "", "env FAKE_OWN_SETTING": "its own",
	}
	for k, v := range want {
		if obs[k] != v {
			t.Errorf("%s: the agent saw %q, want %q", k, obs[k], v)
		}
	}
	for k, says := range map[string]string{
		"read outside": "outside the workspace", "read dotdot": "outside the workspace", "read symlink": "through a symlink",
		"read denied": "denied by the rule deny read_file(.env)", "write git": ".git directory", "terminal": "does not offer terminal/create",
		"run": `"optionId":"no"`,
	} {
		if !strings.HasPrefix(obs[k], "error: ") && k != "run" || !strings.Contains(obs[k], says) {
			t.Errorf("%s: the agent got %q, want an error saying %q", k, obs[k], says)
		}
	}
	if !strings.Contains(obs["run"], "denied by the rule deny run_command(rm:*)") {
		t.Errorf("the refused command's answer carries no reason: %s", obs["run"])
	}
	if data, _ := os.ReadFile(filepath.Join(root, "out.txt")); string(data) != "twice\n" {
		t.Errorf("out.txt = %q", data)
	}
	if _, err := os.Stat(filepath.Join(root, ".git", "hooks", "pre-commit")); err == nil {
		t.Error("the agent wrote a git hook")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	// One card for the edit, one for the second write nobody allowed;
	// the write the edit's card allowed is not asked about again.
	if len(p.cards) != 2 || p.cards[0].Tool != "write_file" || !strings.Contains(p.cards[0].Preview, "+hello") || p.cards[1].Tool != "write_file" {
		t.Errorf("cards: %+v", p.cards)
	}
	var kinds []string
	for _, ev := range p.events {
		if ev.EventMeta().Agent != "c1" {
			t.Errorf("an event about %q", ev.EventMeta().Agent)
		}
		kinds = append(kinds, ev.Kind())
		if f, ok := ev.(event.ToolFinished); ok && (!strings.Contains(f.Diff, "+hello") || f.Name != "edit_file") {
			t.Errorf("the edit's end shows %+v", f)
		}
	}
	joined := strings.Join(kinds, " ")
	for _, k := range []string{"text", "message_done", "tool_started", "tool_finished", "todos"} {
		if !strings.Contains(joined, k) {
			t.Errorf("no %s event in %s", k, joined)
		}
	}
	if len(p.recorded) != 2 || p.recorded[0].Content != "do the thing" || p.recorded[1].Content != end.Text {
		t.Errorf("recorded %+v", p.recorded)
	}
}

func TestACPChildStopSendsCancel(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	h, p, root := start(t, ctx, "cancellable")
	waitText(t, p, "working")
	cancel(agent.ErrStopped)
	end := ending(t, h)
	if end.Status != event.StatusCancelled || end.Text != "working" {
		t.Errorf("a stopped child ended %s %q: %s", end.Status, end.Text, end.Reason)
	}
	if _, err := os.Stat(filepath.Join(root, "cancel-received")); err != nil {
		t.Errorf("the agent was not sent session/cancel: %v", err)
	}
}

func TestACPChildTakesMessagesAsTurnsOfTheirOwn(t *testing.T) {
	handles := make(chan child.Handle, 1)
	h, p, _ := startWith(t, context.Background(), "steer", func(*event.ApprovalRequest) event.Answer {
		if err := (<-handles).Control(child.Control{Kind: child.Steer, Text: "also this"}); err != nil {
			t.Errorf("Control: %v", err)
		}
		return event.Answer{Decision: event.Allow}
	})
	handles <- h
	end := ending(t, h)
	if end.Status != event.StatusCompleted || end.Text != "turn 2: also this" {
		t.Errorf("ending %s %q: %s", end.Status, end.Text, end.Reason)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var said []string
	for _, m := range p.recorded {
		said = append(said, m.Role+": "+m.Content)
	}
	if strings.Join(said, " | ") != "user: do the thing | user: also this | assistant: turn 2: also this" {
		t.Errorf("recorded %q", said)
	}
	if err := h.Control(child.Control{Kind: child.Steer, Text: "late"}); err == nil {
		t.Error("a finished ACP child took a message")
	}
}

func TestHostileACPChildrenEndBoundedAndClear(t *testing.T) {
	defer shorten(&cancelGrace, 100*time.Millisecond)()
	defer shorten(&startTimeout, 2*time.Second)()
	for _, c := range []struct{ mode, says string }{
		{"garbage", "lines that are not ACP messages"},
		{"silent", "did not start within"},
		{"crash", "boom: no key configured"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			if c.mode == "silent" {
				// It never answers: any bound shows it, and a short one
				// keeps the test quick. The others must start in time.
				defer shorten(&startTimeout, 200*time.Millisecond)()
			}
			h, _, _ := start(t, context.Background(), c.mode)
			end := ending(t, h)
			if end.Status != event.StatusFailed || !strings.Contains(end.Reason, c.says) {
				t.Errorf("ending %s: %q; want failed saying %q", end.Status, end.Reason, c.says)
			}
		})
	}
	t.Run("stubborn", func(t *testing.T) {
		ctx, cancel := context.WithCancelCause(context.Background())
		defer cancel(nil)
		h, p, _ := start(t, ctx, "stubborn")
		waitText(t, p, "working")
		cancel(agent.ErrStopped)
		if end := ending(t, h); end.Status != event.StatusCancelled {
			t.Errorf("an agent deaf to cancel ended %s: %s", end.Status, end.Reason)
		}
	})
}

func TestEnvironDropsCredentials(t *testing.T) {
	got := Environ([]string{"PATH=/bin", "HOME=/h", "OPENAI_API_KEY=a", "GEMINI_API_KEY=b", "GH_TOKEN=c", "AWS_ACCESS_KEY_ID=d",
		"DB_PASSWORD=e", "SSH_AUTH_SOCK=/s", "BATON_KEY_FD=3", "LANG=C", "GOOGLE_APPLICATION_CREDENTIALS=/k.json", "HOME_OVERRIDE=x"},
		map[string]string{"GEMINI_API_KEY": "its own", "HOME": "/its"})
	want := "GEMINI_API_KEY=its own HOME=/its HOME_OVERRIDE=x LANG=C PATH=/bin"
	if strings.Join(got, " ") != want {
		t.Errorf("Environ = %q\nwant %q", got, want)
	}
}

// waitText waits for the child to stream text.
func waitText(t *testing.T, p *pane, text string) {
	t.Helper()
	deadline := time.After(testTimeout)
	for {
		select {
		case ev := <-p.seen:
			if d, ok := ev.(event.TextDelta); ok && d.Text == text {
				return
			}
		case <-deadline:
			t.Fatalf("the agent never said %q", text)
		}
	}
}

// shorten sets a wait for one test and returns its undo.
func shorten(v *time.Duration, d time.Duration) func() {
	old := *v
	*v = d
	return func() { *v = old }
}

func writeTest(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
