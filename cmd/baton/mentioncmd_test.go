package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// A custom command's @file mentions attach the file, as Claude Code's
// do: baton -p "/explain" sends the command's prompt with the file's
// content after it.
func TestCustomCommandAttachesItsFileMentions(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, ".claude", "commands", "explain.md"), "---\ndescription: Explain the notes\n---\nExplain @docs/notes.md in one line.")
	writeFile(t, filepath.Join(ws, "docs", "notes.md"), "the build needs go 1.26\n")
	env := []string{"HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL}
	var stdout, stderr strings.Builder
	if code := run(context.Background(), ws, []string{"-p", "/explain"}, env, strings.NewReader(""), &stdout, &stderr, nil); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got := srv.Requests()[0].LastUser()
	if !strings.HasPrefix(got, "Explain @docs/notes.md in one line.") || !strings.Contains(got, "the build needs go 1.26") {
		t.Errorf("sent %q", got)
	}
}
