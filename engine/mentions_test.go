package engine

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

func TestMentionsParsing(t *testing.T) {
	for prompt, want := range map[string][]string{
		"explain @main.go and @docs/":                 {"main.go", "docs/"},
		"@a.go, @b.go. and (@c.go)":                   {"a.go", "b.go"},
		`see @"my notes.md" please`:                   {"my notes.md"},
		"mail me at me@example.com":                   nil,
		"the @github:repo://x resource and @srv:file": nil,
		"@a.go twice @a.go":                           {"a.go"},
		"a lone @ sign":                               nil,
		"line one\n@cmd/baton/main.go: what is here?": {"cmd/baton/main.go"},
	} {
		if got := FileMentions(prompt); !reflect.DeepEqual(got, want) {
			t.Errorf("FileMentions(%q) = %q, want %q", prompt, got, want)
		}
	}
}

// A prompt without an @ names no file, and its turn neither builds the
// pattern nor runs it.
func TestMentionsOfAPromptWithoutAtBuildNoPattern(t *testing.T) {
	mentionPatternOnce, mentionPatternValue = sync.Once{}, nil
	if got := FileMentions("explain the build\nand fix the failing test"); got != nil {
		t.Errorf("FileMentions = %q, want none", got)
	}
	if mentionPatternValue != nil {
		t.Error("a prompt without @ built the mention pattern")
	}
}

// A prompt's @mentions reach the model with the files' contents, read
// through read_file's guards: a deny rule holds (also through a link to
// the denied file), a link out of the workspace and a FIFO are refused
// without hanging, a folder is listed, and a word that names no file is
// left as text. Each read shows as the person's call; the prompt shown
// is the one typed.
func TestMentionsAttachFilesThroughTheReadGuards(t *testing.T) {
	var lastUser string
	s, _ := newTestSession(t, func(req *llmtest.Request, w *llmtest.Writer) {
		lastUser = req.LastUser()
		w.Text("ok")
	}, func(c *Config) {
		c.Rules = []event.PermissionRule{{Kind: "deny", Rule: "read_file(.env)", Source: event.SourceUser}}
	})
	ws := s.Workspace()
	writeFile(t, ws, "notes.md", "the notes say hello\n")
	writeFile(t, ws, ".env", "API_TOKEN=hunter2\n")
	writeFile(t, ws, "docs/guide.md", "guide\n")
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("outside secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"innocent.txt": ".env", "escape.txt": outside} {
		if err := os.Symlink(target, filepath.Join(ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(ws, "pipe.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	typed := "summarise @notes.md @.env @innocent.txt @escape.txt @pipe.txt @docs and ask @someone"
	log := runTurn(t, s, typed, nil)

	if !strings.HasPrefix(lastUser, typed) || !strings.Contains(lastUser, "the notes say hello") || !strings.Contains(lastUser, "guide.md") {
		t.Errorf("the model did not get the prompt with notes.md and the docs listing:\n%s", lastUser)
	}
	for _, leak := range []string{"hunter2", "outside secret"} {
		if strings.Contains(lastUser, leak) {
			t.Errorf("the prompt leaks %q:\n%s", leak, lastUser)
		}
	}
	if started := eventsOf[event.TurnStarted](log); len(started) != 1 || started[0].Prompt != typed {
		t.Errorf("the prompt shown is %+v, want the typed one", started)
	}
	results := map[string]event.ToolFinished{}
	for _, f := range eventsOf[event.ToolFinished](log) {
		results[f.CallID] = f
	}
	byTitle := map[string]event.ToolFinished{}
	for _, st := range eventsOf[event.ToolStarted](log) {
		if !strings.HasPrefix(st.CallID, personCallPrefix) {
			t.Errorf("a mention's call id %q is not the person's", st.CallID)
		}
		byTitle[st.Title] = results[st.CallID]
	}
	for title, want := range map[string]string{
		"attach @notes.md": "", "attach @docs": "",
		"attach @.env": "denied by the rule deny read_file(.env)", "attach @innocent.txt": "denied by the rule deny read_file(.env)",
		"attach @escape.txt": "outside", "attach @pipe.txt": "not a regular file",
	} {
		got, ok := byTitle[title]
		switch {
		case !ok:
			t.Errorf("no call shown for %s (shown: %v)", title, byTitle)
		case want == "" && got.IsError:
			t.Errorf("%s failed: %s", title, got.Output)
		case want != "" && (!got.IsError || !strings.Contains(got.Output, want)):
			t.Errorf("%s: %q, want an error saying %q", title, got.Output, want)
		}
	}
	if _, shown := byTitle["attach @someone"]; shown {
		t.Errorf("a word that names no file was shown as a failed attachment")
	}
}

// The attachments of one prompt share the tool output budget: a file
// past it is not attached, and says why.
func TestMentionsShareTheOutputBudget(t *testing.T) {
	var lastUser string
	s, _ := newTestSession(t, func(req *llmtest.Request, w *llmtest.Writer) {
		lastUser = req.LastUser()
		w.Text("ok")
	}, func(c *Config) { c.Limits.ToolOutputChars = 200 })
	writeFile(t, s.Workspace(), "big.txt", strings.Repeat("abcdefghij\n", 100))
	writeFile(t, s.Workspace(), "small.txt", "small\n")
	log := runTurn(t, s, "@big.txt @small.txt", nil)
	if strings.Contains(lastUser, "small\n") {
		t.Errorf("the file past the budget was attached:\n%s", lastUser)
	}
	if n := strings.Count(lastUser, "abcdefghij"); n == 0 || n > 20 {
		t.Errorf("big.txt attached %d lines; the budget is 200 characters", n)
	}
	var failed []string
	for _, f := range eventsOf[event.ToolFinished](log) {
		if f.IsError {
			failed = append(failed, f.Output)
		}
	}
	if len(failed) != 1 || !strings.Contains(failed[0], "tool_output_chars") {
		t.Errorf("failures %q, want small.txt's naming the limit", failed)
	}
}

// Completion lists what list_files would: no .git, no gitignored entry,
// nothing a deny rule covers.
func TestMentionPathsLeaveOutWhatIsHidden(t *testing.T) {
	s, _ := newTestSession(t, func(req *llmtest.Request, w *llmtest.Writer) { w.Text("ok") }, func(c *Config) {
		c.Rules = []event.PermissionRule{{Kind: "deny", Rule: "read_file(**/*.env)", Source: event.SourceUser}}
	})
	ws := s.Workspace()
	for name, content := range map[string]string{"main.go": "package main\n", "cmd/tool.go": "package cmd\n", ".gitignore": "build/\n",
		"build/out.bin": "x", ".git/config": "[core]\n", "secrets/prod.env": "TOKEN=1\n"} {
		writeFile(t, ws, name, content)
	}
	paths, err := s.MentionPaths()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".gitignore", "cmd/", "cmd/tool.go", "main.go", "secrets/"}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("MentionPaths = %q, want %q", paths, want)
	}
}
