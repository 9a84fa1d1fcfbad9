package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// first_byte_timeout_s from the user config bounds a real run against an
// endpoint that never answers: the retry is announced naming the setting.
func TestRunNetworkTimeoutFromConfig(t *testing.T) {
	second := make(chan struct{})
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 1 {
			close(second)
		}
		<-w.Context().Done()
	})
	home := t.TempDir()
	writeFile(t, filepath.Join(home, ".config", "baton", "config.toml"), "[network]\nfirst_byte_timeout_s = 1\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { // exits when the retry arrives or the test ends
		select {
		case <-second:
			cancel()
		case <-ctx.Done():
		}
	}()
	r := runIn(t, ctx, []string{"HOME=" + home, "OPENAI_BASE_URL=" + srv.URL}, "", "-p", "hello")
	// The first pause is 2 s spread at random over 1 s to 3 s.
	want := regexp.MustCompile(`note: retrying in [123]s \(1/2\) · no reply from the endpoint within 1 s \(first_byte_timeout_s\)\n`)
	if r.code != exitInterrupted || !want.MatchString(r.stderr) {
		t.Fatalf("exit %d, stderr:\n%s\nwant %s", r.code, r.stderr, want)
	}
}

// TestProjectFilesNeverStopTheStart runs `baton -p` in repositories whose
// .claude/settings.json is a FIFO, a link to /dev/zero, or not JSON, and
// whose .baton/config.toml sets a limit past its maximum: each run
// answers, and stderr names the file and the key it ignored.
func TestProjectFilesNeverStopTheStart(t *testing.T) {
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("summary") })
	settings := map[string]func(path string) error{
		"a FIFO":             func(path string) error { return syscall.Mkfifo(path, 0o600) },
		"a link to a device": func(path string) error { return os.Symlink("/dev/zero", path) },
		"not JSON":           func(path string) error { return os.WriteFile(path, []byte("{permissions"), 0o600) },
	}
	wants := map[string]string{
		"a FIFO":             "baton: note: .claude/settings.json: a named pipe (FIFO), not a regular file; ignored",
		"a link to a device": "baton: note: .claude/settings.json: resolves outside the workspace (to /dev/zero); ignored",
		"not JSON":           "baton: note: .claude/settings.json: invalid character 'p' looking for beginning of object key string; ignored",
	}
	for name, make := range settings {
		t.Run(name, func(t *testing.T) {
			ws, home := t.TempDir(), t.TempDir()
			writeFile(t, filepath.Join(ws, ".baton", "config.toml"), "[limits]\ntool_output_chars = 2000000\n")
			if err := os.MkdirAll(filepath.Join(ws, ".claude"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := make(filepath.Join(ws, ".claude", "settings.json")); err != nil {
				t.Fatal(err)
			}
			env := []string{"XDG_STATE_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=sk-test-0123456789"}
			r := runAt(t, ws, home, env, "-p", "summarize")
			if r.code != exitOK || r.stdout != "summary\n" {
				t.Fatalf("exit %d stdout %q\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			for _, want := range []string{wants[name],
				"baton: note: .baton/config.toml: limits.tool_output_chars: expected at most 1000000, got 2000000; ignored"} {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
				}
			}
		})
	}
}
