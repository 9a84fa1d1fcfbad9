package main

import (
	"context"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes/corpus"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// TestCorpusCommandsHeadless: real command files from an npm package and
// from public repositories expand under baton -p "/name args" as in the
// TUI: the arguments reach the prompt, the file's own text is sent.
func TestCorpusCommandsHeadless(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	ws := t.TempDir()
	corpus.Copy(t, "npm__oh-my-opencode@4.19.4/.opencode/command/remove-deadcode.md", ws, ".opencode/command/remove-deadcode.md")
	corpus.Copy(t, "npm__oh-my-opencode@4.19.4/.opencode/command/publish.md", ws, ".opencode/command/publish.md")
	corpus.Copy(t, "anthropics__claude-code/.claude/commands/dedupe.md", ws, ".claude/commands/dedupe.md")
	corpus.Copy(t, "gentamura__dotfiles/.claude/commands/pr/review.md", ws, ".claude/commands/pr/review.md")
	for prompt, want := range map[string][]string{
		"/remove-deadcode src/legacy": {"Dead code removal via massively parallel deep agents", "src/legacy"},
		"/publish minor":              {"You are the release manager for oh-my-opencode", "minor"},
		"/dedupe 1234":                {"Find up to 3 likely duplicate issues", "1234"},
		"/pr:review #42":              {"# PR Review", "#42"},
	} {
		before := len(srv.Requests())
		env := []string{"HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL}
		var stdout, stderr strings.Builder
		if code := run(context.Background(), ws, []string{"-p", prompt}, env, strings.NewReader(""), &stdout, &stderr, nil); code != exitOK {
			t.Fatalf("%s: exit %d: %s", prompt, code, stderr.String())
		}
		sent := srv.Requests()[before].LastUser()
		for _, w := range want {
			if !strings.Contains(sent, w) {
				t.Errorf("%s: the prompt sent lacks %q:\n%.300s", prompt, w, sent)
			}
		}
	}
}
