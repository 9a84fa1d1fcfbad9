package process_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/child/process"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// killScript is a child that reads a file, runs a quick command, then a
// command that never ends on its own: 11 events it reports for sure
// (StepStarted, MessageDone, ToolStarted, ToolFinished per step; the
// last step's ToolStarted), and nothing after them until it is killed.
func killScript(r *llmtest.Request, w *llmtest.Writer) {
	try := strings.TrimPrefix(r.Body.Messages[1].Content, "try ")
	say := func(text string) {
		w.Chunk(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"role": "assistant", "content": text}}}})
	}
	switch len(toolResults(r)) {
	case 0:
		say("reading first")
		w.ToolCalls(llmtest.Call{ID: "r", Name: "read_file", Args: `{"path":"notes.txt"}`})
	case 1:
		say("then a command")
		w.ToolCalls(llmtest.Call{ID: "e", Name: "run_command", Args: `{"command":"echo one"}`})
	default:
		say("then a long one")
		w.ToolCalls(llmtest.Call{ID: "s", Name: "run_command", Args: fmt.Sprintf(`{"command":"TRY=%s exec sleep 300"}`, try)})
	}
}

// counted are the events of a child the kill test counts: those its
// script sends for sure, whatever the timing.
func counted(ev event.Event) bool {
	switch ev.(type) {
	case event.StepStarted, event.MessageDone, event.ToolStarted, event.ToolFinished:
		return true
	}
	return false
}

// The kill test runs 5 turns of 10 children, each child killed at one of
// the 11 events of its run the test counts.
const turns, perTurn, events = 5, 10, 11

// turn is the number of the turn r belongs to ("turn 3").
func turn(r *llmtest.Request) int {
	for i := len(r.Body.Messages) - 1; i >= 0; i-- {
		if m := r.Body.Messages[i]; m.Role == "user" && strings.HasPrefix(m.Content, "turn ") {
			n, _ := strconv.Atoi(strings.TrimPrefix(m.Content, "turn "))
			return n
		}
	}
	return 0
}

// TestKilledChildFailsWithItsPartialWork kills 50 child processes, each at
// a random event of its run (from its first step to the command it is
// running): each ends failed with what it had reported, nothing it
// started lives on, and the parent's turn goes on to its answer.
func TestKilledChildFailsWithItsPartialWork(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, seed))
	t.Logf("seed %d", seed)
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			killScript(r, w)
		case r.Body.Messages[len(r.Body.Messages)-1].Role == "user":
			var calls []llmtest.Call
			for i := range perTurn {
				calls = append(calls, llmtest.Call{ID: fmt.Sprintf("t%d", i), Name: child.TaskToolName,
					Args: fmt.Sprintf(`{"description":"try","prompt":"try %d-%d","subagent_type":"general-purpose"}`, turn(r), i)})
			}
			w.ToolCalls(calls...)
		default:
			w.Text(fmt.Sprintf("carried on after %d results", len(toolResults(r))-turn(r)*perTurn))
		}
	})
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := engine.NewSession(context.Background(), engine.Config{Client: srv.Client(), Endpoint: srv.Endpoint(), Model: "m",
		Workspace: ws, Mode: permission.Yolo, Runner: child.RunnerProcess,
		Limits: engine.Limits{MaxConcurrent: perTurn, ChildStepsWrite: 10, ChildTimeout: time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for n := range turns {
		killAt := map[event.AgentID]int{}
		seen := map[event.AgentID]int{}
		steps := map[event.AgentID]int{}
		text := map[event.AgentID]string{}
		stream := map[event.AgentID]string{}
		tries := map[event.AgentID]string{}
		var finished []event.AgentFinished
		end := watch(t, s, fmt.Sprintf("turn %d", n), func(ev event.Event) {
			id := ev.EventMeta().Agent
			switch e := ev.(type) {
			case event.AgentStarted:
				killAt[id], tries[id] = 1+rng.IntN(events), strings.TrimPrefix(e.Prompt, "try ")
			case event.AgentFinished:
				finished = append(finished, e)
				if alive := tryProcesses(tries[id]); len(alive) > 0 {
					t.Errorf("%s ended (%s, killed at its event %d), and what it ran lives on: %v", id, e.Reason, killAt[id], describe(alive))
				}

			case event.StepStarted:
				steps[id] = e.Step
			case event.TextDelta:
				stream[id] += e.Text
			case event.MessageDone:
				text[id], stream[id] = e.Text, ""
			}
			if id == event.MainAgent || !counted(ev) {
				return
			}
			if seen[id]++; seen[id] == killAt[id] {
				kill(t, id)
			}
		})
		if end.Status != event.StatusCompleted || end.Text != fmt.Sprintf("carried on after %d results", perTurn) {
			t.Fatalf("turn %d ended %s: %q", n, end.Status, end.Text)
		}
		if len(finished) != perTurn {
			t.Fatalf("turn %d: %d children finished, want %d", n, len(finished), perTurn)
		}

		for _, f := range finished {
			// What it had reported is what baton took from it, all of
			// which came on the channel: the text of its last message,
			// or of the one it was streaming.
			want := text[f.Agent]
			if stream[f.Agent] != "" {
				want = stream[f.Agent]
			}
			if f.Status != event.StatusFailed || !strings.Contains(f.Reason, "child process failed") ||
				f.Stats.Steps != steps[f.Agent] || f.Text != want {
				t.Errorf("killed at its event %d of %d, %s ended %s (%q), %d steps (saw %d), text %q (saw %q)",
					killAt[f.Agent], events, f.Agent, f.Status, f.Reason, f.Stats.Steps, steps[f.Agent], f.Text, want)
			}
		}
	}
}

// kill sends SIGKILL to the child process of id.
func kill(t *testing.T, id event.AgentID) {
	t.Helper()
	pid := childProcess(id)
	if pid == 0 {
		t.Fatalf("no child process for %s", id)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill %s (%d): %v", id, pid, err)
	}
}

// childProcess finds the child process of id among this process's
// children: baton __child <id>. (A process the child forks has the same
// arguments until it runs its own program; its parent is the child.)
func childProcess(id event.AgentID) int {
	self := strconv.Itoa(os.Getpid())
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		args := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
		end := bytes.LastIndexByte(stat, ')')
		if end < 0 || len(args) < 3 || args[len(args)-2] != process.Subcommand || args[len(args)-1] != string(id) {
			continue
		}
		if fields := strings.Fields(string(stat[end+1:])); len(fields) > 1 && fields[1] == self {
			return pid
		}
	}
	return 0
}

// tryProcesses lists the live processes started for try (TRY=try in
// their environment).
func tryProcesses(try string) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := bytes.LastIndexByte(stat, ')'); i < 0 || len(stat) < i+3 || stat[i+2] == 'Z' {
			continue // gone, or a zombie: nothing runs
		}
		if bytes.Contains(env, []byte("TRY="+try+"\x00")) {
			out = append(out, pid)
		}
	}
	return out
}

// TestKilledMidCommandLeavesNothingBehind kills a child process while its
// command runs: the command and its sandbox's supervisor, which came to
// baton when the child died, are ended and reaped before the child's
// end is reported.
func TestKilledMidCommandLeavesNothingBehind(t *testing.T) {
	ws := t.TempDir()
	fifo := filepath.Join(ws, "running")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			w.ToolCalls(llmtest.Call{ID: "s", Name: "run_command", Args: `{"command":"echo yes > running && TRY=mid exec sleep 300"}`})
		case len(toolResults(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "t", Name: child.TaskToolName, Args: `{"description":"run","prompt":"run it","subagent_type":"general-purpose"}`})
		default:
			w.Text("went on")
		}
	})
	s, err := engine.NewSession(context.Background(), engine.Config{Client: srv.Client(), Endpoint: srv.Endpoint(), Model: "m",
		Workspace: ws, Mode: permission.Yolo, Runner: child.RunnerProcess})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	before := adopted() // what earlier tests left
	var finished []event.AgentFinished
	end := watch(t, s, "go", func(ev event.Event) {
		switch e := ev.(type) {
		case event.ToolStarted:
			if e.Name != "run_command" {
				return
			}
			// Opening the fifo waits for the command to write it: it
			// runs now.
			if _, err := os.ReadFile(fifo); err != nil {
				t.Errorf("read %s: %v", fifo, err)
			}
			kill(t, e.Agent)
		case event.AgentFinished:
			finished = append(finished, e)
			if alive := tryProcesses("mid"); len(alive) > 0 {
				t.Errorf("the command lives on: %v", alive)
			}
			if left := slices.DeleteFunc(adopted(), func(p string) bool { return slices.Contains(before, p) }); len(left) > 0 {
				t.Errorf("processes that came to baton are left: %v", left)
			}
		}
	})
	if end.Text != "went on" || len(finished) != 1 || finished[0].Status != event.StatusFailed {
		t.Fatalf("turn %s %q, finished %+v", end.Status, end.Text, finished)
	}
}

// adopted lists this process's children but its child processes, live
// or ended and not yet reaped: the test starts no other process itself,
// so they came to it when the child process that started them died.
func adopted() []string {
	var out []string
	self := strconv.Itoa(os.Getpid())
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		open, end := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
		if err != nil || open < 0 || end < open {
			continue
		}
		fields := strings.Fields(string(stat[end+1:]))
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if len(fields) > 1 && fields[1] == self && !bytes.Contains(cmdline, []byte(process.Subcommand)) {
			out = append(out, fmt.Sprintf("%s %s (%s)", e.Name(), fields[0], stat[open+1:end]))
		}
	}
	return out
}

// describe says what each process is, for a failure's message.
func describe(pids []int) []string {
	var out []string
	for _, pid := range pids {
		status, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
		var keep []string
		for _, line := range strings.Split(string(status), "\n") {
			if strings.HasPrefix(line, "Name:") || strings.HasPrefix(line, "State:") || strings.HasPrefix(line, "PPid:") || strings.HasPrefix(line, "NSpid:") {
				keep = append(keep, strings.Join(strings.Fields(line), " "))
			}
		}
		out = append(out, fmt.Sprintf("%d %s", pid, strings.Join(keep, ", ")))
	}
	return out
}
