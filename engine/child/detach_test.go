package child_test

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"
	"golang.org/x/sys/unix"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// detachScript is a main agent that starts two children in processes of
// their own: "write" waits for write before it writes notes.md (a call
// the person must approve) and answers; "count" waits for count, then
// answers at once. Each child's first request says so on asked.
func detachScript(write, count sessiontest.Gate, asked chan<- string) llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		if !sessiontest.IsChild(r) {
			if sessiontest.LastIsUser(r, "start both") {
				w.ToolCalls(sessiontest.TaskCall("w", "general-purpose", "write notes", "write"), sessiontest.TaskCall("c", "general-purpose", "count files", "count"))
				return
			}
			w.Text("answer to: " + r.LastUser())
			return
		}
		who, results := r.Body.Messages[1].Content, len(sessiontest.ToolMessages(r))
		switch {
		case results == 0:
			asked <- who
			if who == "count" {
				if count.Wait(w) {
					w.Text("3 files")
				}
				return
			}
			if write.Wait(w) {
				w.ToolCalls(llmtest.Call{ID: "n", Name: "write_file", Args: `{"path":"notes.md","content":"notes\n"}`})
			}
		default:
			w.Text("notes written: " + sessiontest.ToolMessages(r)[0])
		}
	}
}

// TestDetachedChildrenAreTakenUpAgain: baton quits with d while two
// children run in processes of their own; both run on. One ends while no
// baton listens; the other is still waiting for the model when --continue
// finds it. The resumed session delivers the first's result and
// re-attaches the second, whose question (a write to approve) reaches
// the person there; both results reach the main agent as background
// results, each child's history is in its transcript once, and a child
// re-attached and then stopped leaves no process behind.
func TestDetachedChildrenAreTakenUpAgain(t *testing.T) {
	store, workspace, dir := sessiontest.NewRecorded(t, nil)
	write, count := make(sessiontest.Gate), make(sessiontest.Gate)
	asked := make(chan string, 2)
	mutate := func(c *engine.Config) {
		recordTo(workspace, dir)(c)
		c.Runner, c.Mode = child.RunnerProcess, permission.Ask
	}
	live, _ := newTestSession(t, detachScript(write, count, asked), mutate)
	if err := live.Submit("start both"); err != nil {
		t.Fatal(err)
	}
	ids := map[string]event.AgentID{}
	sessiontest.ReadUntil(t, live, func(ev event.Event) bool {
		switch e := ev.(type) {
		case event.ApprovalRequested:
			e.Request.Answer(event.Answer{Decision: event.Allow}) // the two delegations
		case event.AgentStarted:
			if !e.Detachable {
				t.Fatalf("a child on the process runner of a recorded session is not detachable: %+v", e)
			}
			ids[e.Prompt] = e.Agent
		}
		return len(ids) == 2
	})
	<-asked
	<-asked
	if n := live.Detach(); n != 2 {
		t.Fatalf("Detach let go of %d children, want 2", n)
	}
	live.Close()
	pids := map[string]int{}
	for who, id := range ids {
		pids[who] = childPID(t, dir, id)
		if err := unix.Kill(pids[who], 0); err != nil {
			t.Fatalf("the %s child did not outlive baton: %v", who, err)
		}
		// Its standard error is its home's file, whether its process
		// was started for it or was a spare (which moves it there).
		stderr, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pids[who]), "fd", "2"))
		if want := filepath.Join(dir.Path(), "children", string(id), "stderr.log"); err != nil || stderr != want {
			t.Fatalf("the %s child's standard error is %q (%v), want %s", who, stderr, err, want)
		}
	}
	impostor(t, dir, ids["write"])
	close(count)
	waitExit(t, pids["count"]) // it ends while no baton listens

	again, err := store.Open(workspace, dir.ID())
	if err != nil {
		t.Fatal(err)
	}
	resumed, _ := newTestSession(t, sessiontest.DelegatingScript(false), func(c *engine.Config) {
		mutate(c)
		c.Transcript, c.NoWakeOnResult = again, true
	})
	sessiontest.Contains(t, "resume notes", strings.Join(resumed.ResumeNotes(), "; "), "2 sub-agents ran on without baton, taken up again")
	for _, ev := range resumed.History() {
		if f, ok := ev.(event.AgentFinished); ok {
			t.Fatalf("a detached child was recorded as ended on resume: %+v", f)
		}
	}
	finished := map[event.AgentID]event.AgentFinished{}
	var cards, queued int
	close(write)
	sessiontest.ReadUntil(t, resumed, func(ev event.Event) bool {
		switch e := ev.(type) {
		case event.ApprovalRequested:
			if e.Request.Tool != "write_file" || e.Agent != ids["write"] {
				t.Fatalf("unexpected card %+v", e.Request)
			}
			cards++
			e.Request.Answer(event.Answer{Decision: event.Allow})
		case event.AgentFinished:
			finished[e.Agent] = e
		case event.ResultQueued:
			queued++
		}
		return queued == 2
	})
	if f := finished[ids["count"]]; f.Status != event.StatusCompleted || f.Text != "3 files" {
		t.Fatalf("the child that ended while baton was away: %+v", f)
	}
	if f := finished[ids["write"]]; f.Status != event.StatusCompleted || !strings.HasPrefix(f.Text, "notes written: ") || cards != 1 {
		t.Fatalf("the re-attached child: %+v after %d cards", f, cards)
	}
	if got, err := os.ReadFile(filepath.Join(workspace, "notes.md")); err != nil || string(got) != "notes\n" {
		t.Fatalf("notes.md: %q, %v", got, err)
	}
	waitExit(t, pids["write"])
	for who, id := range ids {
		if n := assistantMessages(t, again, id); n != map[string]int{"write": 2, "count": 1}[who] {
			t.Errorf("the %s child's transcript holds %d assistant messages", who, n)
		}
	}
	log := sessiontest.RunTurn(t, resumed, "hello", nil)
	if d := sessiontest.Of[event.ResultDelivered](log); len(d) != 2 {
		var kinds []string
		for _, ev := range log.Events() {
			kinds = append(kinds, ev.Kind()+":"+string(ev.EventMeta().Agent))
		}
		t.Fatalf("%d results delivered to the main agent, want 2: %v", len(d), kinds)
	}
}

// impostor attaches to the detached child id as a process that read its
// socket's name but does not know its token (a command of another agent,
// say) would: the child hangs up without a line, and no question of its
// can be answered that way.
func impostor(t *testing.T, dir *transcript.Dir, id event.AgentID) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir.Path(), "children", string(id), "attach.json"))
	if err != nil {
		t.Fatal(err)
	}
	var info struct{ Socket string }
	if err := json.Unmarshal(data, &info); err != nil {
		t.Fatal(err)
	}
	nc, err := net.Dial("unix", "@"+info.Socket)
	if err != nil {
		t.Fatalf("the child does not listen for batons: %v", err)
	}
	defer nc.Close()
	if _, err := nc.Write([]byte(`{"attach":{"token":"guessed","from":0}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(nc); len(got) != 0 || err != nil {
		t.Fatalf("a baton without the token was told %q (%v)", got, err)
	}
}

// childPID is the process of a detachable child, as its folder says.
func childPID(t *testing.T, dir *transcript.Dir, id event.AgentID) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir.Path(), "children", string(id), "attach.json"))
	if err != nil {
		t.Fatal(err)
	}
	var info struct{ Pid int }
	if err := json.Unmarshal(data, &info); err != nil || info.Pid == 0 {
		t.Fatalf("attach.json of %s: %s", id, data)
	}
	return info.Pid
}

// waitExit waits, without polling, until process pid has exited.
func waitExit(t *testing.T, pid int) {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, int(sessiontest.Timeout.Milliseconds()))
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || n == 0 {
			t.Fatalf("process %d did not exit: %v", pid, err)
		}
		return
	}
}

// assistantMessages counts the assistant messages in an agent's
// transcript.
func assistantMessages(t *testing.T, dir *transcript.Dir, id event.AgentID) int {
	t.Helper()
	records, _, err := dir.Read(string(id))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, rec := range records {
		var m openai.ChatCompletionMessage
		if rec.Kind == transcript.KindMessage && json.Unmarshal(rec.Data, &m) == nil && m.Role == openai.ChatMessageRoleAssistant {
			n++
		}
	}
	return n
}

// TestDetachedChildWithoutItsRunnerIsStopped: a session resumed where the
// process runner is not offered (here: no endpoint configuration a child
// process could use) cannot take up a child that ran on; it kills it, so
// none runs on that nobody can reach, and lists it as interrupted.
func TestDetachedChildWithoutItsRunnerIsStopped(t *testing.T) {
	store, workspace, dir := sessiontest.NewRecorded(t, nil)
	asked := make(chan string, 2)
	live, _ := newTestSession(t, detachScript(make(sessiontest.Gate), make(sessiontest.Gate), asked), func(c *engine.Config) {
		recordTo(workspace, dir)(c)
		c.Runner = child.RunnerProcess
	})
	if err := live.Submit("start both"); err != nil {
		t.Fatal(err)
	}
	<-asked
	<-asked
	if n := live.Detach(); n != 2 {
		t.Fatalf("Detach let go of %d children, want 2", n)
	}
	live.Close()
	again, err := store.Open(workspace, dir.ID())
	if err != nil {
		t.Fatal(err)
	}
	resumed, _ := newTestSession(t, sessiontest.DelegatingScript(false), func(c *engine.Config) {
		recordTo(workspace, again)(c)
		c.Endpoint = llm.Config{}
	})
	interrupted := 0
	for _, ev := range resumed.History() {
		if f, ok := ev.(event.AgentFinished); ok && f.Status == event.StatusInterrupted {
			interrupted++
			waitExit(t, childPID(t, again, f.Agent))
		}
	}
	if interrupted != 2 {
		t.Fatalf("%d children listed as interrupted, want 2", interrupted)
	}
}

// TestDetachedWorktreeChildGoesOnInItsWorktree: a worktree child let go
// of as baton quits is taken up again in its own worktree: what it
// writes after the resume lands there, not in the person's tree, and its
// change waits for review as any worktree child's does.
func TestDetachedWorktreeChildGoesOnInItsWorktree(t *testing.T) {
	store, workspace, dir := sessiontest.NewRecorded(t, nil)
	sessiontest.WriteFile(t, workspace, "README", "hi\n")
	sessiontest.GitRepo(t, workspace)
	worktrees := t.TempDir()
	write := make(sessiontest.Gate)
	asked := make(chan struct{}, 1)
	script := func(r *llmtest.Request, w *llmtest.Writer) {
		switch results := len(sessiontest.ToolMessages(r)); {
		case !sessiontest.IsChild(r) && sessiontest.LastIsUser(r, "start"):
			w.ToolCalls(llmtest.Call{ID: "t1", Name: child.TaskToolName,
				Args: `{"description":"write notes","prompt":"Write notes.","subagent_type":"general-purpose","isolation":"worktree"}`})
		case !sessiontest.IsChild(r):
			w.Text("answer to: " + r.LastUser())
		case results == 0:
			asked <- struct{}{}
			if write.Wait(w) {
				w.ToolCalls(llmtest.Call{ID: "n", Name: "write_file", Args: `{"path":"notes.md","content":"notes\n"}`})
			}
		default:
			w.Text("notes written")
		}
	}
	mutate := func(c *engine.Config) {
		recordTo(workspace, dir)(c)
		c.Runner, c.Worktrees.Root = child.RunnerProcess, worktrees
	}
	live, _ := newTestSession(t, script, mutate)
	if err := live.Submit("start"); err != nil {
		t.Fatal(err)
	}
	<-asked
	if n := live.Detach(); n != 1 {
		t.Fatalf("Detach let go of %d children, want 1", n)
	}
	live.Close()

	again, err := store.Open(workspace, dir.ID())
	if err != nil {
		t.Fatal(err)
	}
	resumed, _ := newTestSession(t, script, func(c *engine.Config) {
		mutate(c)
		c.Transcript, c.NoWakeOnResult = again, true
	})
	close(write)
	var end event.AgentFinished
	sessiontest.ReadUntil(t, resumed, func(ev event.Event) bool {
		end, _ = ev.(event.AgentFinished)
		return end.Agent != ""
	})
	if end.Status != event.StatusCompleted || end.Change == nil || end.Change.State != event.ChangePending {
		t.Fatalf("the re-attached worktree child ended %+v", end)
	}
	if _, err := os.Stat(filepath.Join(workspace, "notes.md")); !os.IsNotExist(err) {
		t.Fatalf("the re-attached child wrote into the person's tree: %v", err)
	}
	if got, err := os.ReadFile(filepath.Join(end.Change.Worktree, "notes.md")); err != nil || string(got) != "notes\n" {
		t.Fatalf("notes.md in its worktree: %q, %v", got, err)
	}
	review, err := resumed.Review(end.Agent)
	if err != nil || len(review.Files) != 1 || review.Files[0].Path != "notes.md" {
		t.Fatalf("the review of the re-attached child: %+v, %v", review, err)
	}
	waitExit(t, childPID(t, again, end.Agent))
}
