package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// failingReader is a stdin whose reads fail.
type failingReader struct{}

func (failingReader) Read([]byte) (int, error) {
	return 0, errors.New("read /dev/stdin: input/output error")
}

// A run whose working folder is gone, or whose prompt on stdin cannot be
// read or is over the cap, says why and exits with its code, having
// asked the model nothing; help still answers without a folder.
func TestRunRefusesWhatItCannotRead(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	env := []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "OPENAI_BASE_URL=" + srv.URL}
	for _, tc := range []struct {
		name, dir string
		stdin     io.Reader
		args      []string
		code      int
		stderr    string
	}{
		{"folder gone", "", strings.NewReader(""), []string{"-p", "hi"}, exitFailed, "baton: workspace: the working folder is gone\n"},
		{"stdin fails", t.TempDir(), failingReader{}, []string{"-p", "-"}, exitUsage, "baton: read prompt from stdin: read /dev/stdin: input/output error\n"},
		{"stdin too long", t.TempDir(), strings.NewReader(strings.Repeat("x", maxPromptBytes+1)), []string{"-p", "-"}, exitUsage,
			"baton: read prompt from stdin: longer than 1048576 bytes\n"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), tc.dir, tc.args, env, tc.stdin, &stdout, &stderr, nil); code != tc.code || stderr.String() != tc.stderr || stdout.Len() != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %d and %q", tc.name, code, stdout.String(), stderr.String(), tc.code, tc.stderr)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("the model was asked %d times", n)
	}
	var stdout bytes.Buffer
	if code := run(context.Background(), "", []string{"--help"}, env, strings.NewReader(""), &stdout, io.Discard, nil); code != exitOK || !strings.Contains(stdout.String(), "Usage:") {
		t.Errorf("--help without a folder: exit %d, %q", code, stdout.String())
	}
}

// --no-session-persistence records no transcript: the run answers and
// nothing is written under the state folder; baton sessions with
// nowhere to keep transcripts (no HOME, no XDG_STATE_HOME) says so.
func TestNoSessionPersistenceRecordsNothing(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	home := t.TempDir()
	r := runIn(t, context.Background(), []string{"HOME=" + home, "OPENAI_BASE_URL=" + srv.URL}, "", "-p", "hi", "--no-session-persistence")
	if r.code != exitOK || r.stdout != "ok\n" {
		t.Fatalf("exit %d, stdout %q: %s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(home, ".local", "state", "baton", "sessions")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a transcript folder was made: %v", err)
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), t.TempDir(), []string{"sessions"}, []string{"PATH=" + os.Getenv("PATH")}, strings.NewReader(""), &stdout, &stderr, nil)
	if code != exitUsage || !strings.HasPrefix(stderr.String(), "baton: transcripts: ") || stdout.Len() != 0 {
		t.Errorf("baton sessions without a home: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// Claude Code's flags that baton cannot honour as given are refused with
// why, before anything runs.
func TestClaudeFlagsRefusedWithWhy(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-p", "hi", "--permission-prompt-tool", "mcp__approver__ask"}, `--permission-prompt-tool: baton asks over stdio only (stdio), got "mcp__approver__ask"`},
		{[]string{"-p", "hi", "--permission-prompt-tool", "stdio"}, "--permission-prompt-tool stdio asks over stdin and stdout: it needs --input-format stream-json"},
		{[]string{"-p", "hi", "--max-turns", "0"}, "--max-turns: expected a positive integer, got 0"},
		{[]string{"-p", "hi", "--system-prompt", "  "}, "--system-prompt: the prompt is empty"},
		{[]string{"-p", "hi", "--max-turns", fmt.Sprint(engine.MaxLimits.MaxSteps + 1)},
			fmt.Sprintf("--max-turns: expected at most %d, got %d", engine.MaxLimits.MaxSteps, engine.MaxLimits.MaxSteps+1)},
		{[]string{"--resume", " "}, "--resume: expected a session id (see baton sessions)"},
	} {
		if _, err := parseFlags(tc.args); err == nil || err.Error() != tc.want {
			t.Errorf("%q: %v, want %q", tc.args, err, tc.want)
		}
	}
}

// --dangerously-skip-permissions is --yolo: a command no rule allows runs
// without asking.
func TestDangerouslySkipPermissionsRunsWithoutAsking(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 0 {
			w.ToolCalls(llmtest.Call{ID: "c1", Name: "run_command", Args: `{"command":"echo skipped-the-question"}`})
			return
		}
		msgs := r.Body.Messages
		w.Text("ran: " + msgs[len(msgs)-1].Content)
	})
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL}, "", "-p", "run it", "--dangerously-skip-permissions")
	if r.code != exitOK || !strings.Contains(r.stdout, "ran: ") || !strings.Contains(r.stdout, "skipped-the-question") || strings.Contains(r.stdout, "denied") {
		t.Fatalf("exit %d, stdout %q\nstderr %s", r.code, r.stdout, r.stderr)
	}
}
