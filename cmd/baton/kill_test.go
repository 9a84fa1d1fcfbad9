package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// childArgsEnv, when set, makes the test binary run baton with these
// unit-separator (0x1f) separated arguments instead of the tests.
const childArgsEnv = "BATON_TEST_RUN_ARGS"

// TestResumeAfterSIGKILL runs baton as a real process, kills it with
// SIGKILL while a sub-agent works, then resumes the session: everything
// completed before the kill reaches the model again, and the child that
// was running is reported as interrupted.
func TestResumeAfterSIGKILL(t *testing.T) {
	childIn := make(chan struct{})
	var once bool
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		last := r.Body.Messages[len(r.Body.Messages)-1]
		switch {
		case !strings.Contains(r.System(), "You are baton"):
			// The child: say something, then hang until the process dies.
			w.Chunk(`{"choices":[{"index":0,"delta":{"content":"half a finding"}}]}`)
			if !once {
				once = true
				close(childIn)
			}
			<-w.Context().Done()
		case last.Role == "user" && last.Content == "find the session code":
			w.ToolCalls(llmtest.Call{ID: "t1", Name: "read_file", Args: `{"path":"notes.txt"}`})
		case last.Role == "tool" && last.ToolCallID == "t1":
			// The delegation comes a step later: a child started beside
			// read_file could reach the server, and be killed, before the
			// read was recorded, which is not what this test is about.
			w.ToolCalls(llmtest.Call{ID: "t2", Name: "task", Args: `{"description":"find sessions","prompt":"Find the session code.","subagent_type":"explore"}`})
		default:
			w.Text("resumed answer")
		}
	})
	ws, home := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(ws, "notes.txt"), "sessions live in store.go\n")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Dir = ws
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_STATE_HOME=", "OPENAI_BASE_URL="+srv.URL,
		childArgsEnv+"="+strings.Join([]string{"--yolo", "-p", "find the session code"}, "\x1f"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-childIn:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the sub-agent never started")
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	r := runAt(t, ws, home, []string{"OPENAI_BASE_URL=" + srv.URL}, "--continue", "-p", "what did you find?")
	if r.code != exitOK || r.stdout != "resumed answer\n" {
		t.Fatalf("resume after SIGKILL: exit %d\nstdout %q\nstderr %s", r.code, r.stdout, r.stderr)
	}
	resumed := srv.Requests()[len(srv.Requests())-1]
	results := map[string]string{}
	for _, m := range resumed.Body.Messages {
		if m.Role == "tool" {
			results[m.ToolCallID] = m.Content
		}
	}
	if !strings.Contains(results["t1"], "sessions live in store.go") {
		t.Errorf("the completed read_file result was lost: %q", results["t1"])
	}
	if !strings.Contains(results["t2"], "baton stopped before this call finished") {
		t.Errorf("the killed delegation was not closed: %q", results["t2"])
	}
	list := runAt(t, ws, home, nil, "sessions")
	if !strings.Contains(list.stdout, "find the session code") || !strings.Contains(list.stdout, "  2  ") {
		t.Errorf("sessions after the kill:\n%s", list.stdout)
	}
}
