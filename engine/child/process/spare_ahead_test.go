package process_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/child/process"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// TestSparesWaitBeforeTheModelAnswers: a session on the process runner
// readies its spare child processes once the main agent's request is
// sent, before the model has written a byte of its reply (three before
// its first delegation), so the children of a delegation
// written all at once, every task call in one read, start in them too.
// While they wait, the spares hold neither the key, in their arguments or
// environment, nor a file or socket open: nothing of the workspace or the
// endpoint reaches a process before its child's spec does.
func TestSparesWaitBeforeTheModelAnswers(t *testing.T) {
	const key = "sk-spare-key-5521"
	t.Setenv("OPENAI_API_KEY", key)
	spares := announcedSpares(t)
	var (
		mu       sync.Mutex
		cmdlines []string
		seen     string
	)
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			var n int
			_, _ = fmt.Sscanf(r.Body.Messages[len(r.Body.Messages)-1].Content, "look around %d", &n)
			raw, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(childProcess(event.AgentID(fmt.Sprint("explore-", n+1)))), "cmdline"))
			mu.Lock()
			cmdlines = append(cmdlines, string(raw))
			mu.Unlock()
			w.Text("looked")
		case len(toolResults(r)) == 0:
			for range 3 {
				held := heldBySpare(nextSpare(spares), key)
				mu.Lock()
				seen += held
				mu.Unlock()
			}
			var calls []llmtest.Call
			for i := range 3 {
				calls = append(calls, llmtest.Call{ID: fmt.Sprint("t", i), Name: child.TaskToolName,
					Args: fmt.Sprintf(`{"description":"look %d","prompt":"look around %d","subagent_type":"explore"}`, i, i)})
			}
			w.ToolCalls(calls...)
		default:
			w.Text("done")
		}
	})
	endpoint := llm.Config{APIKey: key, BaseURL: srv.URL}
	s, err := engine.NewSession(context.Background(), engine.Config{Client: llm.NewClient(endpoint), Endpoint: endpoint, Model: "m",
		Workspace: t.TempDir(), Mode: permission.Yolo, Runner: child.RunnerProcess})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var finished int
	watch(t, s, "go", func(ev event.Event) {
		if f, ok := ev.(event.AgentFinished); ok && f.Status == event.StatusCompleted {
			finished++
		}
	})
	if seen != "" {
		t.Fatalf("spares waiting for their spec hold:\n%s", seen)
	}
	if finished != 3 || len(cmdlines) != 3 {
		t.Fatalf("%d children completed, %d asked", finished, len(cmdlines))
	}
	for _, c := range cmdlines {
		if !strings.Contains(c, "\x00"+process.Subcommand+"\x00explore-") || !strings.HasSuffix(c, "\x00\x00") {
			t.Errorf("a child ran in %q, not in a spare that took its name", c)
		}
	}
}

// announcedSpares gives the process ids of the spares started as this
// test binary from now on, as each starts (see announceSpare).
func announcedSpares(t *testing.T) <-chan int {
	fifo := filepath.Join(t.TempDir(), "spares")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// Read and write: opening it waits for no writer.
	f, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(process.SpareAnnounceEnv, fifo)
	pids := make(chan int, 16)
	done := make(chan struct{})
	// Ends when the FIFO is closed, as the test ends.
	go func() {
		defer close(done)
		lines := bufio.NewScanner(f)
		for lines.Scan() {
			if pid, err := strconv.Atoi(lines.Text()); err == nil {
				pids <- pid
			}
		}
	}()
	t.Cleanup(func() {
		_ = f.Close()
		<-done
	})
	return pids
}

// nextSpare is the next spare announced, or 0 when none came in
// testTimeout.
func nextSpare(pids <-chan int) int {
	select {
	case pid := <-pids:
		return pid
	case <-time.After(testTimeout):
		return 0
	}
}

// heldBySpare says what the spare pid holds that it must not before its
// spec: the key in its arguments or environment, a file or a socket open.
// It runs on the server's goroutine, so it reports rather than fails.
func heldBySpare(pid int, key string) string {
	if pid == 0 {
		return "no spare was started before the model answered\n"
	}
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	var held []string
	for _, name := range []string{"cmdline", "environ"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err.Error() + "\n"
		}
		if strings.Contains(string(data), key) {
			held = append(held, fmt.Sprintf("%d: the key in its %s", pid, name))
		}
	}
	fds, err := os.ReadDir(filepath.Join(dir, "fd"))
	if err != nil {
		return err.Error() + "\n"
	}
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join(dir, "fd", fd.Name()))
		if err != nil {
			continue // closed meanwhile
		}
		// Go's runtime keeps the cgroup's CPU limit open, to follow it;
		// a spare reads its own maps and pages for a moment as it lets
		// go of its start-up's code (see residency).
		runtimes := strings.HasPrefix(target, "/sys/fs/cgroup/") || target == "/dev/null" || strings.HasSuffix(target, "/spares") ||
			strings.HasPrefix(target, dir+"/")
		if strings.HasPrefix(target, "/") && !runtimes || strings.HasPrefix(target, "socket:") {
			held = append(held, fmt.Sprintf("%d: descriptor %s open on %s", pid, fd.Name(), target))
		}
	}
	if len(held) == 0 {
		return ""
	}
	return strings.Join(held, "\n") + "\n"
}
