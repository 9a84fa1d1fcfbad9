package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// benchHome is a person's machine in miniature, as cmd/perf builds it: a
// user config naming the endpoint, and a project that is a git repository
// with an AGENTS.md and a .gitignore. It returns the project folder and
// the environment.
func benchHome(b *testing.B, url string) (string, []string) {
	b.Helper()
	home := b.TempDir()
	project := filepath.Join(home, "src", "app")
	for name, text := range map[string]string{
		filepath.Join(home, ".config", "baton", "config.toml"): "base_url = \"" + url + "\"\nmodel = \"bench-model\"\n",
		filepath.Join(project, "go.mod"):                       "module example.com/app\n\ngo 1.22\n",
		filepath.Join(project, ".gitignore"):                   "/bin/\n*.log\n",
		filepath.Join(project, "AGENTS.md"):                    "# Notes for agents\n\n- Run `go test ./...` before you finish.\n",
		filepath.Join(project, "main.go"):                      "package main\n\nfunc main() {}\n",
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "init", "-q", project).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v: %s", err, out)
	}
	return project, []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "OPENAI_API_KEY=sk-bench"}
}

// BenchmarkHeadlessStart is what `baton -p` does before its first request
// and after its session ends, without the turn: flags, config, trust,
// agent files, the transcript's folder and lock, the engine's session, and
// closing it all. A session without a prompt leaves no folder behind, so
// the store does not grow with b.N.
func BenchmarkHeadlessStart(b *testing.B) {
	srv := llmtest.NewServer(b, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	project, environ := benchHome(b, srv.URL)
	args := []string{"-p", "hello"}
	b.ReportAllocs()
	for b.Loop() {
		inv, code := prepare(project, parseCommandLine(args), environ, strings.NewReader(""), io.Discard, io.Discard)
		if inv == nil {
			b.Fatalf("prepare: exit %d", code)
		}
		dir, _, _, err := openTranscript(inv, time.Now())
		if err != nil {
			b.Fatal(err)
		}
		setup := newSessionSetup(inv.cfg, inv.endpoint, inv.types, inv.workspace, inv.env, inv.headless)
		setup.engine.Transcript, setup.engine.LazyModelList = dir, true
		s, err := engine.NewSession(context.Background(), setup.engine)
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
		if removed, err := dir.CloseDiscardingEmpty(); err != nil || !removed {
			b.Fatalf("close: removed %v, %v", removed, err)
		}
	}
}

// BenchmarkHeadlessRun is a whole `baton -p hello` answered by one short
// text: the start, one streamed turn, the transcript and the end. Each run
// keeps its session, as a person's does.
func BenchmarkHeadlessRun(b *testing.B) {
	srv := llmtest.NewServer(b, func(_ *llmtest.Request, w *llmtest.Writer) { w.Text("hello to you") })
	project, environ := benchHome(b, srv.URL)
	args := []string{"-p", "hello"}
	b.ReportAllocs()
	for b.Loop() {
		if code := run(context.Background(), project, args, environ, strings.NewReader(""), io.Discard, io.Discard, nil); code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
}
