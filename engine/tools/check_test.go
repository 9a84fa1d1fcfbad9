package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// TestCheckRunsAVerifyCommand: a verify command runs as run_command would
// and reports its exit status and bounded output; the safety rules
// refuse it as they refuse a model's command; one past its time is
// killed and says so.
func TestCheckRunsAVerifyCommand(t *testing.T) {
	ws := newTree(t, map[string]string{"a.txt": "one\n"})
	ctx := context.Background()
	box := testBox(ws)
	res, err := Check(ctx, ws, Limits{}, box, "cat a.txt; echo done >&2; exit 4", time.Minute)
	if err != nil || res.Exit != 4 || res.TimedOut || !strings.Contains(res.Output, "one") || !strings.Contains(res.Output, "done") {
		t.Errorf("exit 4: %+v, %v", res, err)
	}
	res, err = Check(ctx, ws, Limits{OutputChars: 200}, box, "seq 1 5000", time.Minute)
	if err != nil || res.Exit != 0 || len([]rune(res.Output)) > 400 || !strings.Contains(res.Output, "5000") {
		t.Errorf("long output: %d chars, %v", len(res.Output), err)
	}
	if _, err := Check(ctx, ws, Limits{}, box, "  ", time.Minute); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("an empty command: %v", err)
	}
	if _, err := Check(ctx, ws, Limits{}, box, "rm -rf /", time.Minute); err == nil || !strings.Contains(err.Error(), "safety rules") {
		t.Errorf("rm -rf /: %v", err)
	}
	res, err = Check(ctx, ws, Limits{}, box, "sleep 30", 100*time.Millisecond)
	if err != nil || !res.TimedOut || res.Exit != -1 {
		t.Errorf("past its time: %+v, %v", res, err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Check(cancelled, ws, Limits{}, box, "true", time.Minute); err == nil {
		t.Error("a verify command ran after its context ended")
	}
}

// TestCheckIsConfinedLikeRunCommand: a verify command cannot write
// outside the workspace any more than the model's commands can.
func TestCheckIsConfinedLikeRunCommand(t *testing.T) {
	if !sandbox.Available() {
		t.Skipf("this kernel has no Landlock (%s)", sandbox.Unavailable())
	}
	ws := newTree(t, nil)
	box := sandbox.Settings{Env: map[string]string{"HOME": t.TempDir(), "TMPDIR": t.TempDir()}}.Policy(ws.Root())
	outside := filepath.Join(t.TempDir(), "planted")
	res, err := Check(context.Background(), ws, Limits{}, box, "echo x > "+outside, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if _, statErr := os.Stat(outside); statErr == nil {
		t.Errorf("the verify command wrote outside the workspace (exit %d: %s)", res.Exit, res.Output)
	}
}
