package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/config"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/themes"
)

// first_byte_timeout_s from the user config bounds a real run against an
// endpoint that never answers: the retry is announced naming the setting
// (and the run is interrupted then, not after the pause).
func TestRunNetworkTimeoutFromConfig(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { <-w.Context().Done() })
	home := t.TempDir()
	writeFile(t, filepath.Join(home, ".config", "baton", "config.toml"), "[network]\nfirst_byte_timeout_s = 1\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &announcement{text: "note: retrying in", seen: make(chan struct{})}
	go func() { // exits when the retry is announced or the test ends
		select {
		case <-stderr.seen:
			cancel()
		case <-ctx.Done():
		}
	}()
	ws := t.TempDir()
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "OPENAI_BASE_URL=" + srv.URL}
	code := run(ctx, ws, []string{"-p", "hello"}, env, strings.NewReader(""), io.Discard, stderr, nil)
	// The first pause is 2 s spread at random over 1 s to 3 s.
	want := regexp.MustCompile(`note: retrying in [123]s \(1/2\) · no reply from the endpoint within 1 s \(first_byte_timeout_s\)\n`)
	if got := stderr.String(); code != exitInterrupted || !want.MatchString(got) {
		t.Fatalf("exit %d, stderr:\n%s\nwant %s", code, got, want)
	}
}

// announcement is a writer that closes seen once what was written holds
// text.
type announcement struct {
	text string
	seen chan struct{}
	mu   sync.Mutex
	b    strings.Builder
}

// Write implements io.Writer.
func (a *announcement) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	had := strings.Contains(a.b.String(), a.text)
	a.b.Write(p)
	if !had && strings.Contains(a.b.String(), a.text) {
		close(a.seen)
	}
	return len(p), nil
}

// String is what was written.
func (a *announcement) String() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.b.String()
}

// TestProjectFilesNeverStopTheStart runs `baton -p` in repositories whose
// .claude/settings.json is a FIFO, a link to /dev/zero, or not JSON, and
// whose .baton/config.toml sets a limit past its maximum: each run
// answers, and stderr names the file and the key it ignored.
func TestProjectFilesNeverStopTheStart(t *testing.T) {
	t.Parallel()
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

// loadWith reads the config of home and workspace as baton started with
// args would, the folder trusted.
func loadWith(t *testing.T, home, workspace string, args []string) (config.Config, error) {
	t.Helper()
	flags, err := parseFlags(args)
	if err != nil {
		t.Fatalf("parseFlags(%q): %v", args, err)
	}
	return config.Load(config.Sources{Flags: flags.overrides(), Env: map[string]string{"HOME": home}, Workspace: workspace, Trusted: true, Themes: themes.Names()})
}

// ruleTexts writes rules as "kind rule @source" for comparison.
func ruleTexts(list []event.PermissionRule) []string {
	out := make([]string, len(list))
	for i, r := range list {
		out[i] = r.Kind + " " + r.Rule + " @" + r.Source
	}
	return out
}
