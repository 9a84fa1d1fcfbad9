package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// resultHeading starts a background result as the main agent gets it:
// "[#3 done] proc-3 (one)".
var resultHeading = regexp.MustCompile(`(?m)^\[#\d+`)

// fourChildren scripts "go four": a local reader (#1), a local writer in
// a worktree (#2) and two children in processes of their own (#3, #4).
// Before the crash the local ones work a step, then wait for the model;
// #3 waits for procOne, #4 for its request to end (stopped, it reports
// in a last step without tools). Resumed, the local ones answer. Each child says on busy when it waits; the main agent's
// requests say on delivered which children's results reached it.
func fourChildren(procOne chan struct{}, busy chan<- string, delivered chan<- string) llmtest.Responder {
	var mu sync.Mutex
	told := map[string]bool{} // each result is said once, though every later request holds it
	return func(r *llmtest.Request, w *llmtest.Writer) {
		if strings.Contains(r.System(), "You are baton") {
			last := r.Body.Messages[len(r.Body.Messages)-1]
			if last.Role == "user" && last.Content == "go four" {
				w.ToolCalls(
					llmtest.Call{ID: "t1", Name: "task", Args: `{"description":"read","prompt":"local read","subagent_type":"explore"}`},
					llmtest.Call{ID: "t2", Name: "task", Args: `{"description":"write","prompt":"local write","subagent_type":"general-purpose","isolation":"worktree"}`},
					llmtest.Call{ID: "t3", Name: "task", Args: `{"description":"one","prompt":"proc one","subagent_type":"proc"}`},
					llmtest.Call{ID: "t4", Name: "task", Args: `{"description":"two","prompt":"proc two","subagent_type":"proc"}`})
				return
			}
			for _, m := range r.Body.Messages {
				if m.Role != "user" {
					continue
				}
				for _, n := range resultHeading.FindAllString(m.Content, -1) { // several results may share a message
					mu.Lock()
					fresh := !told[n]
					told[n] = true
					mu.Unlock()
					if fresh {
						delivered <- n
					}
				}
			}
			w.Text("noted")
			return
		}
		who, results := r.Body.Messages[1].Content, 0
		resumed := false
		for _, m := range r.Body.Messages {
			results += map[bool]int{true: 1}[m.Role == "tool"]
			resumed = resumed || (m.Role == "user" && strings.HasPrefix(m.Content, "You were interrupted"))
		}
		switch {
		case who == "proc one":
			busy <- who
			select {
			case <-procOne:
				w.Text("proc one done")
			case <-w.Context().Done():
			}
		case who == "proc two" && len(r.ToolNames()) == 0: // stopped: its last step, to report
			w.Text("proc two wound down")
		case who == "proc two":
			busy <- who
			<-w.Context().Done()
		case resumed:
			w.Text(who + " done")
		case results == 0 && who == "local read":
			w.ToolCalls(llmtest.Call{ID: "r", Name: "read_file", Args: `{"path":"README.md"}`})
		case results == 0:
			w.ToolCalls(llmtest.Call{ID: "w", Name: "write_file", Args: `{"path":"notes.md","content":"draft\n"}`})
		default:
			busy <- who
			<-w.Context().Done()
		}
	}
}

// TestKilledBatonLeavesNothingBehind kills baton (-9) while four children
// run: two in baton's own process (one writing in a worktree) and two in
// processes of their own. The process children run on; one ends while no
// baton runs. baton --continue delivers that one's result, re-attaches
// the other (which the person then stops: no process is left), and lists
// the local ones as interrupted, which /subagents resume brings to
// completion, the writer in its worktree. Every child ends once, and
// every result reaches the main agent once.
func TestKilledBatonLeavesNothingBehind(t *testing.T) {
	config := t.TempDir()
	writeFile(t, filepath.Join(config, "baton", "agents", "proc.md"),
		"---\nname: proc\ndescription: works in a process of its own\ntools: read_file\nrunner: process\n---\nYou work in a process.\n")
	t.Setenv("XDG_CONFIG_HOME", config)
	ws, home := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(ws, "README.md"), "hello\n")
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "first"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	procOne := make(chan struct{})
	busy, delivered := make(chan string, 8), make(chan string, 8)
	srv := llmtest.NewServer(t, fourChildren(procOne, busy, delivered))

	first := startTUIIn(t, srv.URL, ws, home)
	first.waitFor(t, "\x1b[?1049h")
	if _, err := first.tty.WriteString("go four\r"); err != nil {
		t.Fatal(err)
	}
	waiting := map[string]bool{}
	for len(waiting) < 4 {
		select {
		case who := <-busy:
			waiting[who] = true
		case <-time.After(30 * time.Second):
			t.Fatalf("only %v run; output tail:\n%q", waiting, tail(first.output(), 400))
		}
	}
	pids := processChildren(t, home)
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.wait(t)
	for id, pid := range pids {
		if err := syscall.Kill(pid, 0); err != nil {
			t.Fatalf("%s did not outlive baton's kill -9: %v", id, err)
		}
	}
	close(procOne)
	awaitExit(t, pids["proc-3"]) // it ends while no baton runs

	second := startTUIIn(t, srv.URL, ws, home, "--continue")
	second.waitFor(t, "2 sub-agents were interrupted when baton stopped")
	awaitResults(t, second, delivered, "[#3")
	for _, command := range []string{"/subagents stop 4\r", "/subagents resume 1\r", "/subagents resume 2\r"} {
		if _, err := second.tty.WriteString(command); err != nil {
			t.Fatal(err)
		}
	}
	awaitExit(t, pids["proc-4"]) // stopped: no orphan
	awaitResults(t, second, delivered, "[#4", "[#5", "[#6")
	if err := second.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	second.wait(t)

	ended := map[event.AgentID][]event.AgentFinished{}
	var gone bool
	for _, ev := range mainEvents(t, home) {
		switch e := ev.(type) {
		case event.AgentFinished:
			ended[e.Agent] = append(ended[e.Agent], e)
		case event.ReviewFinished:
			gone = gone || (e.Number == 2 && e.Change.State == event.ChangeGone)
		}
	}
	want := map[event.AgentID]event.Status{"explore-1": event.StatusInterrupted, "general-purpose-2": event.StatusInterrupted,
		"proc-3": event.StatusCompleted, "proc-4": event.StatusStopped, "explore-5": event.StatusCompleted, "general-purpose-6": event.StatusCompleted}
	for id, status := range want {
		if got := ended[id]; len(got) != 1 || got[0].Status != status {
			t.Errorf("%s ended %+v, want once, %s", id, got, status)
		}
	}
	if w := ended["general-purpose-6"]; len(w) == 1 && (w[0].Change == nil || w[0].Change.State != event.ChangePending || !gone) {
		t.Errorf("the resumed writer's change: %+v (the interrupted one's review handed on: %v)", w[0].Change, gone)
	}
	if _, err := os.Stat(filepath.Join(ws, "notes.md")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the writer's change reached the working tree unreviewed: %v", err)
	}
}

// processChildren are the children in processes of their own of the one
// session under home, by id, as their folders say.
func processChildren(t *testing.T, home string) map[string]int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(home, ".local", "state", "baton", "sessions", "*", "*", "children", "*", "attach.json"))
	if err != nil || len(files) != 2 {
		t.Fatalf("children folders: %v %v", files, err)
	}
	out := map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		var info struct{ Pid int }
		if err != nil || json.Unmarshal(data, &info) != nil {
			t.Fatalf("%s: %s %v", f, data, err)
		}
		out[filepath.Base(filepath.Dir(f))] = info.Pid
	}
	return out
}

// awaitExit waits, without polling, until process pid has exited.
func awaitExit(t *testing.T, pid int) {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	for {
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 30_000)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || n == 0 {
			t.Fatalf("process %d did not exit: %v", pid, err)
		}
		return
	}
}

// awaitResults waits until the main agent has received the results of
// the children numbered (each "[#N").
func awaitResults(t *testing.T, r *ptyRun, delivered <-chan string, want ...string) {
	t.Helper()
	left := map[string]bool{}
	for _, w := range want {
		left[w] = true
	}
	for len(left) > 0 {
		select {
		case got := <-delivered:
			delete(left, got)
		case <-time.After(30 * time.Second):
			t.Fatalf("results %v never reached the main agent; output tail:\n%q", left, tail(r.output(), 600))
		}
	}
}

// mainEvents are the events of the one session's main transcript under
// home.
func mainEvents(t *testing.T, home string) []event.Event {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(home, ".local", "state", "baton", "sessions", "*", "*", "main.jsonl"))
	if err != nil || len(files) != 1 {
		t.Fatalf("main transcripts: %v %v", files, err)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var out []event.Event
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec transcript.Record
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if rec.Kind != transcript.KindEvent {
			continue
		}
		if ev, err := event.UnmarshalEvent(rec.Data); err == nil {
			out = append(out, ev)
		}
	}
	return out
}
