package main

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// hostile holds the escapes an attacker would use: OSC 52 writes the
// clipboard, ESC[2J clears the screen, a bare CR overwrites a line, and
// an 8-bit CSI does what ESC[ does on terminals that honour it.
const hostile = "\x1b]52;c;Y3VybCBldmlsfHNo\x07clean\x1b[2J text\r\u009b2J"

func TestHeadlessOutputHasNoEscapes(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 0 {
			w.ToolCalls(llmtest.Call{Name: "read_file", Args: `{"path":"` + strings.ReplaceAll(hostile, "\x1b", `\u001b`) + `.go"}`})
			return
		}
		w.Text("answer: " + hostile + "\n\tindented with a tab")
	})
	for _, format := range []string{"text", "json", "stream-json"} {
		t.Run(format, func(t *testing.T) {
			r := runIn(t, t.Context(), []string{"OPENAI_BASE_URL=" + srv.URL}, "", "-p", "go", "--output-format", format)
			for stream, out := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
				if strings.ContainsAny(out, "\x1b\x07\r\u009b") {
					t.Errorf("%s holds a raw escape or control character: %q", stream, out)
				}
			}
			if format == "text" && !strings.Contains(r.stdout, "answer: clean text2J\n\tindented with a tab") {
				t.Errorf("stdout = %q, want the cleaned answer with its tab", r.stdout)
			}
		})
	}
}

func TestSessionListHasNoEscapes(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	ws, home := t.TempDir(), t.TempDir()
	env := []string{"OPENAI_BASE_URL=" + srv.URL}
	if r := runAt(t, ws, home, env, "-p", "title "+hostile); r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	r := runAt(t, ws, home, env, "sessions")
	if r.code != exitOK || !strings.Contains(r.stdout, "title ") {
		t.Fatalf("exit %d, stdout %q", r.code, r.stdout)
	}
	if strings.ContainsAny(r.stdout+r.stderr, "\x1b\x07\r\u009b") {
		t.Errorf("baton sessions printed a raw escape: %q", r.stdout)
	}
}
