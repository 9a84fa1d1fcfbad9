package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/cmd/baton/internal/early"
	"github.com/seed-e4e525a6/baton/engine/child/process"
	"github.com/seed-e4e525a6/baton/engine/config"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/themes"

	"go.uber.org/goleak"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/mcp/mcptest"
)

// personsKey is the key in this test process's environment (TestMain).
const personsKey = "sk-the-persons-key"

func TestMain(m *testing.M) {
	// The tests run on the test runner's processors, as main's stages do.
	early.Undo()
	// This binary starts itself (sandbox stages, servers, baton): built
	// with -race, each such process would sleep a second as it exits.
	if _, set := os.LookupEnv("GORACE"); !set {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	sandbox.Main()
	process.Main()
	if mode := os.Getenv(mcptest.ModeEnv); mode != "" {
		mcptest.RunStdio(mode) // an MCP server started by a test
	}
	if os.Getenv(asBatonEnv) != "" {
		// This process is baton started by the Claude Agent SDK, with the
		// command line the SDK gives Claude Code.
		os.Exit(program(os.Args[1:]))
	}
	if args := os.Getenv(childArgsEnv); args != "" {
		// This process is baton itself, started by a test that kills it.
		os.Exit(program(strings.Split(args, "\x1f")))
	}
	// The tests (not the processes they start as baton, above) run where
	// the person has exported their key, as most do: a path handing the
	// process environment to a child (an ACP agent, a command) is caught
	// leaking it, and the tests checking so need no t.Setenv, which would
	// keep them off t.Parallel.
	os.Setenv("OPENAI_API_KEY", personsKey)
	goleak.VerifyTestMain(m)
}

// writeFile writes content at path, making its folders.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runResult is what one call of run produced.
type runResult struct {
	code           int
	stdout, stderr string
	workspace      string // the folder baton ran in
}

// runIn calls run in a fresh workspace holding two Go files, with a home
// of its own so the real user config is never read.
func runIn(t *testing.T, ctx context.Context, env []string, stdin string, args ...string) runResult {
	t.Helper()
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, "main.go"), "package main\n")
	writeFile(t, filepath.Join(ws, "util", "util.go"), "package util\n")
	env = append([]string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}, env...)
	var stdout, stderr bytes.Buffer
	code := run(ctx, ws, args, env, strings.NewReader(stdin), &stdout, &stderr, nil)
	return runResult{code, stdout.String(), stderr.String(), ws}
}

// listGoFiles scripts the "list the go files" turn: a find_files call,
// then an answer built from the tool result it received.
func listGoFiles(req *llmtest.Request, w *llmtest.Writer) {
	if req.Index == 0 {
		w.ToolCalls(llmtest.Call{Name: "find_files", Args: `{"pattern":"**/*.go"}`})
		return
	}
	if !req.HasToolResult("util/util.go") {
		w.Error(400, `{"error":{"message":"test: the find_files result did not reach the model"}}`)
		return
	}
	w.Text("There are two Go files: main.go and util/util.go.")
}

func TestRunHeadlessListsGoFiles(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, listGoFiles)
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL}, "", "-p", "list the go files")
	if r.code != exitOK {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	if want := "There are two Go files: main.go and util/util.go.\n"; r.stdout != want {
		t.Errorf("stdout = %q, want %q", r.stdout, want)
	}
	if !strings.Contains(r.stderr, "⏺ find_files **/*.go (2 files)\n") {
		t.Errorf("stderr lacks the progress line:\n%s", r.stderr)
	}
	if got := srv.Requests()[0].Body.Model; got != config.DefaultModel {
		t.Errorf("model sent = %q, want the default %q", got, config.DefaultModel)
	}
}

func TestRunHeadlessJSONFromStdin(t *testing.T) {
	srv := llmtest.NewServer(t, listGoFiles)
	debugLog := filepath.Join(t.TempDir(), "debug.log")
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL, "BATON_MODEL=local-model",
		"OPENAI_API_KEY=sk-secret", "BATON_DEBUG=" + debugLog},
		"list the go files\n", "-p", "-", "--output-format", "json")
	if r.code != exitOK {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	var res claudeResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, r.stdout)
	}
	if res.Status != "completed" || res.Model != "local-model" || !strings.Contains(res.Result, "util/util.go") ||
		res.Usage.TotalTokens != 2*(llmtest.PromptTokens+llmtest.CompletionTokens) || res.Cost != nil {
		t.Errorf("result %+v", res)
	}
	if got := srv.Requests()[0].LastUser(); got != "list the go files" {
		t.Errorf("prompt sent = %q", got)
	}
	logged, err := os.ReadFile(debugLog)
	if err != nil || !strings.Contains(string(logged), "baton starting") || strings.Contains(string(logged), "sk-secret") {
		t.Errorf("debug log (err %v) should say baton started and never hold the key:\n%s", err, logged)
	}
}

func TestRunHeadlessStreamJSON(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, listGoFiles)
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL}, "",
		"-p", "list the go files", "--output-format", "baton-stream-json")
	if r.code != exitOK {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	for _, want := range []string{`{"type":"turn_started",`, `{"type":"tool_started",`, `{"type":"tool_finished",`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stream lacks %s", want)
		}
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, `{"type":"turn_ended",`) || !strings.Contains(last, `"status":"completed"`) {
		t.Errorf("last line = %s", last)
	}
}

func TestRunHeadlessProviderError(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		w.Error(401, `{"error":{"message":"Incorrect API key provided: sk-bad"}}`)
	})
	for _, format := range []string{formatText, formatJSON, formatStreamJSON} {
		r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=sk-bad"}, "",
			"-p", "hello", "--output-format", format)
		if r.code != exitFailed {
			t.Fatalf("%s: exit %d, want %d\nstderr: %s", format, r.code, exitFailed, r.stderr)
		}
		if !strings.HasPrefix(r.stderr, "error: ") || !strings.Contains(r.stderr, "Incorrect API key provided") ||
			strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%s: stderr should be one line with the provider's message:\n%s", format, r.stderr)
		}
		if format == formatText && r.stdout != "" {
			t.Errorf("stdout = %q, want nothing", r.stdout)
		}
		if format == formatJSON && !strings.Contains(r.stdout, `"status":"failed"`) {
			t.Errorf("json stdout = %s", r.stdout)
		}
	}
}

func TestRunHeadlessInterrupted(t *testing.T) {
	t.Parallel()
	asked := make(chan struct{})
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		close(asked)
		<-w.Context().Done()
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-asked
		cancel() // what main's signal handler does on SIGINT
	}()
	r := runIn(t, ctx, []string{"OPENAI_BASE_URL=" + srv.URL}, "", "-p", "hello", "--output-format", "json")
	if r.code != exitInterrupted {
		t.Fatalf("exit %d, want %d\nstderr: %s", r.code, exitInterrupted, r.stderr)
	}
	if !strings.Contains(r.stdout, `"status":"interrupted"`) {
		t.Errorf("stdout = %s", r.stdout)
	}
}

func TestRunUsageAndConfigErrors(t *testing.T) {
	tests := []struct {
		name  string
		env   []string
		args  []string
		code  int
		inOut string
		inErr string
	}{
		{"nothing configured", nil, []string{"-p", "hi"}, exitUsage, "", "OPENAI_API_KEY"},
		{"unknown tool", nil, []string{"-p", "hi", "--allow", "sudo"}, exitUsage, "", `unknown tool "sudo" (valid: read_file`},
		{"bad flag", nil, []string{"--nope"}, exitUsage, "", "Run 'baton --help' for usage."},
		{"empty stdin", []string{"OPENAI_API_KEY=sk"}, []string{"-p", "-"}, exitUsage, "", "stdin held no prompt"},
		{"bad env", []string{"OPENAI_BASE_URL=localhost"}, []string{"-p", "hi"}, exitUsage, "", "OPENAI_BASE_URL: expected an http(s) URL"},
		{"bad debug path", []string{"OPENAI_API_KEY=sk", "BATON_DEBUG=/nonexistent/dir/x.log"}, []string{"-p", "hi"}, exitUsage, "", "BATON_DEBUG"},
		{"help", nil, []string{"--help"}, exitOK, "Usage:", ""},
		{"version", nil, []string{"--version"}, exitOK, "baton ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runIn(t, context.Background(), tt.env, "", tt.args...)
			if r.code != tt.code || !strings.Contains(r.stdout, tt.inOut) || !strings.Contains(r.stderr, tt.inErr) {
				t.Errorf("exit %d (want %d)\nstdout: %s\nstderr: %s", r.code, tt.code, r.stdout, r.stderr)
			}
		})
	}
}

func TestRunConfigFileError(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	writeFile(t, filepath.Join(home, ".config", "baton", "config.toml"), "modle = \"x\"\n")
	r := runIn(t, context.Background(), []string{"HOME=" + home, "OPENAI_API_KEY=sk"}, "", "-p", "hi")
	want := filepath.Join(home, ".config", "baton", "config.toml") + `: unknown key "modle" (known: model, base_url`
	if r.code != exitUsage || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d\nstderr: %s\nwant it to contain %s", r.code, r.stderr, want)
	}
}

// TestRunChecksThemesAgainstTheThemesItDraws: the theme names a config
// file may use are the themes package's: an unknown one in the user's
// file stops the start, in a project's file it is dropped with a notice.
func TestRunChecksThemesAgainstTheThemesItDraws(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	home, ws := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, ".config", "baton", "config.toml"), "theme = \"neon\"\n")
	r := runAt(t, ws, home, []string{"OPENAI_BASE_URL=" + srv.URL}, "-p", "hi")
	if want := `theme: expected a theme name (` + strings.Join(themes.Names(), ", ") + `), got "neon"`; r.code != exitUsage || !strings.Contains(r.stderr, want) {
		t.Errorf("user file: exit %d\nstderr: %s\nwant it to contain %s", r.code, r.stderr, want)
	}
	writeFile(t, filepath.Join(home, ".config", "baton", "config.toml"), "theme = \" Light \"\n")
	writeFile(t, filepath.Join(ws, ".baton", "config.toml"), "theme = \"neon\"\n")
	r = runAt(t, ws, home, []string{"OPENAI_BASE_URL=" + srv.URL}, "-p", "hi")
	if want := `note: .baton/config.toml: theme: expected a theme name (`; r.code != exitOK || !strings.Contains(r.stderr, want) {
		t.Errorf("project file: exit %d\nstderr: %s\nwant it to contain %s", r.code, r.stderr, want)
	}
}

// delegateOnce scripts a main agent that hands the search to an explore
// child and then reports what the child returned.
func delegateOnce(req *llmtest.Request, w *llmtest.Writer) {
	switch {
	case !slices.Contains(req.ToolNames(), "task"):
		w.Text("main.go and util/util.go")
	case req.Index == 0:
		w.ToolCalls(llmtest.Call{Name: "task",
			Args: `{"description":"find go files","prompt":"list every .go file","subagent_type":"explore"}`})
	default:
		w.Text("The explorer found them.")
	}
}

func TestRunHeadlessChildLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"allowed", []string{"--allow", "task"},
			[]string{"[Explore] find go files ... 0 tools, 0.0s\n", "[Explore] find go files - done (0 tools, "}},
		{"denied without --allow task", nil,
			[]string{"[Explore] find go files - denied: ", "--allow task"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, delegateOnce)
			args := append([]string{"-p", "find the go files"}, tt.args...)
			r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL}, "", args...)
			if r.code != exitOK || r.stdout != "The explorer found them.\n" {
				t.Fatalf("exit %d, stdout %q\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			for _, want := range tt.want {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
				}
			}
		})
	}
}
