package tools

import (
	"context"
	"encoding/json"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRunCommand(t *testing.T) {
	t.Parallel()
	ws := newTree(t, map[string]string{"marker.txt": "here\n"})
	tests := []struct {
		name        string
		lim         Limits
		args        map[string]any
		want        string // substring of the output
		wantSummary string
		wantErr     string
	}{
		{name: "stdout and stderr", args: map[string]any{"command": "echo out; echo err >&2"}, want: "out\nerr", wantSummary: "exit 0"},
		{name: "runs in the workspace", args: map[string]any{"command": "cat marker.txt"}, want: "here", wantSummary: "exit 0"},
		{name: "no output", args: map[string]any{"command": "true"}, want: "(no output)", wantSummary: "exit 0"},
		{name: "exit code", args: map[string]any{"command": "echo failing; exit 3"}, want: "failing\n[exit status 3]", wantSummary: "exit 3"},
		{name: "exit code, no output", args: map[string]any{"command": "exit 1"}, want: "[exit status 1]", wantSummary: "exit 1"},
		{name: "killed by a signal", args: map[string]any{"command": "kill -TERM $$"}, want: "[signal: terminated]", wantSummary: "signal: terminated"},
		{name: "stdin is empty", args: map[string]any{"command": "cat; echo after"}, want: "after", wantSummary: "exit 0"},
		// Long enough for the sandbox's two start stages on a loaded
		// machine to reach the echo; the sleep is what times out.
		{name: "timeout", lim: Limits{CommandTimeout: 3 * time.Second}, args: map[string]any{"command": "echo started; sleep 30"},
			want: "started\n[timed out after 3s; the command and its children were killed]", wantSummary: "timed out after 3s"},
		{name: "blocklist", args: map[string]any{"command": "sudo rm -fr /"}, wantErr: "refused by baton's safety rules: rm -rf of the filesystem root"},
		{name: "empty", args: map[string]any{"command": "  "}, wantErr: "command is empty"},
		{name: "timeout too short", args: map[string]any{"command": "true", "timeout_s": 0.5}, wantErr: "timeout_s must be between 1 and 600"},
		{name: "timeout too long", args: map[string]any{"command": "true", "timeout_s": 601}, wantErr: "timeout_s must be between 1 and 600"},
		{name: "malformed", args: map[string]any{"command": 42}, wantErr: "invalid arguments for run_command"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, err := call(t, toolByName(t, ws, tc.lim, "run_command"), tc.args)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Output, tc.want) || res.Summary != tc.wantSummary {
				t.Fatalf("result = %+v, want output with %q and summary %q", res, tc.want, tc.wantSummary)
			}
		})
	}
}

func TestRunCommandOutputCap(t *testing.T) {
	ws := newTree(t, nil)
	res := mustCall(t, toolByName(t, ws, Limits{OutputChars: 100}, "run_command"), map[string]any{"command": "seq 1 10000"})
	if !strings.HasPrefix(res.Output, "1\n2\n3\n") || !strings.HasSuffix(res.Output, "9999\n10000") {
		t.Fatalf("capped output lost its head or tail: %q", res.Output)
	}
	if n := len(res.Output); n > 200 {
		t.Fatalf("capped output is %d bytes", n)
	}
}

// TestRunCommandKillsChildren checks that the whole process group ends,
// both when the call is cancelled and when the shell exits leaving a
// background child. The child holds a FIFO open for writing, so the
// reader sees EOF exactly when the child is gone.
func TestRunCommandKillsChildren(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script string
		cancel bool
	}{
		{"cancelled", "exec 3>fifo; sleep 300 >&3 2>&3 & wait", true},
		{"background child after exit", "exec 3>fifo; sleep 300 >&3 2>&3 & echo left", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := newTree(t, nil)
			fifo := filepath.Join(ws.Root(), "fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skipf("no FIFOs here: %v", err)
			}
			opened, gone := make(chan struct{}), make(chan error, 1)
			go func() {
				f, err := os.Open(fifo) // blocks until the shell opens it for writing
				close(opened)
				if err == nil {
					_, err = io.Copy(io.Discard, f)
					f.Close()
				}
				gone <- err
			}()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				args, _ := json.Marshal(map[string]any{"command": tc.script})
				_, err := toolByName(t, ws, Limits{}, "run_command").Run(ctx, args)
				done <- err
			}()
			<-opened
			if tc.cancel {
				cancel()
			}
			if err := <-done; tc.cancel != (err != nil) {
				t.Fatalf("Run() error = %v, want an error only when cancelled", err)
			}
			select {
			case err := <-gone:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the background child outlived the call")
			}
		})
	}
}

func TestRunCommandPreview(t *testing.T) {
	ws := newTree(t, nil)
	p := toolByName(t, ws, Limits{}, "run_command").(Previewer)
	got, err := p.Preview(context.Background(), json.RawMessage(`{"command":"go test ./...","timeout_s":30}`))
	want := "$ go test ./...\n(in " + ws.Root() + ", timeout 30s)\nsandbox: workspace-write · network on"
	if !sandbox.Available() {
		want = "$ go test ./...\n(in " + ws.Root() + ", timeout 30s)\nsandbox: unavailable (" + sandbox.Unavailable() + "): commands run unsandboxed"
	}
	if err != nil || got != want {
		t.Fatalf("Preview() = %q, %v; want %q", got, err, want)
	}
	if _, err := p.Preview(context.Background(), json.RawMessage(`{"command":"mkfs.ext4 /dev/sda1"}`)); err == nil {
		t.Fatal("Preview accepted a blocked command")
	}
}

func TestRunCommandHidesTheAPIKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-must-not-leak")
	t.Setenv("BATON_TEST_VISIBLE", "visible")
	ws := newTree(t, nil)
	res := mustCall(t, toolByName(t, ws, Limits{}, "run_command"), map[string]any{"command": "echo key=$OPENAI_API_KEY other=$BATON_TEST_VISIBLE"})
	if strings.Contains(res.Output, "sk-must-not-leak") || !strings.Contains(res.Output, "other=visible") {
		t.Fatalf("command environment: %q", res.Output)
	}
}
