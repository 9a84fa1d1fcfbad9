package tools

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// buffers is an editor's open files: text it holds, saved or not.
type buffers struct {
	mu    sync.Mutex
	texts map[string]string
}

func (b *buffers) ReadTextFile(_ context.Context, path string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if text, ok := b.texts[path]; ok {
		return text, nil
	}
	data, err := os.ReadFile(path)
	return string(data), err
}

func (b *buffers) WriteTextFile(_ context.Context, path, content string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.texts[path] = content
	return nil
}

// terminal is an editor's terminal: it runs the program it is handed,
// keeping the end of its output when asked to keep only keep bytes.
type terminal struct{ keep int }

func (term terminal) Run(ctx context.Context, cmd TerminalCommand) (TerminalResult, error) {
	c := exec.CommandContext(ctx, cmd.Path, cmd.Args...)
	c.Dir = cmd.Dir
	out, err := c.CombinedOutput()
	res := TerminalResult{Output: string(out)}
	if term.keep > 0 && len(res.Output) > term.keep {
		res.Output, res.Truncated = res.Output[len(res.Output)-term.keep:], true
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.ExitCode, res.Signal = -1, ws.Signal().String()
		} else {
			res.ExitCode = exit.ExitCode()
		}
	case err != nil:
		return TerminalResult{}, err
	}
	return res, nil
}

// editorWorkspace is a workspace served through an editor with buffers
// and a terminal.
func editorWorkspace(t *testing.T, files map[string]string, term EditorTerminal) (*Workspace, *buffers) {
	t.Helper()
	disk := newTree(t, files)
	b := &buffers{texts: map[string]string{}}
	ws, err := NewEditorWorkspace(disk.Root(), Editor{Files: b, Terminal: term})
	if err != nil {
		t.Fatal(err)
	}
	return ws, b
}

// TestEditorBuffersAreWhatToolsReadAndWrite: served through an editor,
// the tools read the person's unsaved text (of a file on disk, or of one
// only the editor has), and a write lands in the editor's buffer, not
// behind its back on the disk.
func TestEditorBuffersAreWhatToolsReadAndWrite(t *testing.T) {
	ws, b := editorWorkspace(t, map[string]string{"a.go": "package a\n"}, nil)
	a, unsaved := filepath.Join(ws.Root(), "a.go"), filepath.Join(ws.Root(), "draft.md")
	b.texts[a] = "package a // unsaved\n"
	b.texts[unsaved] = "only in the editor\n"
	read := toolByName(t, ws, Limits{}, "read_file")
	if res := mustCall(t, read, map[string]any{"path": "a.go"}); !strings.Contains(res.Output, "unsaved") {
		t.Errorf("read_file a.go = %q, want the editor's text", res.Output)
	}
	if res := mustCall(t, read, map[string]any{"path": "draft.md"}); !strings.Contains(res.Output, "only in the editor") {
		t.Errorf("read_file draft.md = %q", res.Output)
	}
	if _, err := call(t, read, map[string]any{"path": "nowhere.md"}); err == nil || !strings.Contains(err.Error(), "file not found") {
		t.Errorf("read_file of a file neither has: %v", err)
	}
	edit := toolByName(t, ws, Limits{}, "edit_file")
	mustCall(t, edit, map[string]any{"path": "a.go", "old_string": "// unsaved", "new_string": "// edited"})
	if b.texts[a] != "package a // edited\n" {
		t.Errorf("the editor's buffer = %q", b.texts[a])
	}
	if data, _ := os.ReadFile(a); string(data) != "package a\n" {
		t.Errorf("the disk was written behind the editor: %q", data)
	}
	write := toolByName(t, ws, Limits{}, "write_file")
	res := mustCall(t, write, map[string]any{"path": "draft.md", "content": "only in the editor\nmore\n"})
	if !strings.HasPrefix(res.Output, "wrote draft.md") || b.texts[unsaved] != "only in the editor\nmore\n" {
		t.Errorf("write_file over an unsaved file: %q, buffer %q", res.Output, b.texts[unsaved])
	}
	if _, err := os.Stat(unsaved); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("draft.md reached the disk: %v", err)
	}
}

// TestEditorTerminalRunsTheSandboxedCommand: run_command in an editor's
// terminal reports its exit status, and a terminal that kept
// only the end of the output, as baton's own runner would.
func TestEditorTerminalRunsTheSandboxedCommand(t *testing.T) {
	ws, _ := editorWorkspace(t, map[string]string{"a.txt": "x\n"}, terminal{})
	run := toolByName(t, ws, Limits{}, "run_command")
	res := mustCall(t, run, map[string]any{"command": "cat a.txt; exit 3"})
	if !strings.Contains(res.Output, "x") || !strings.Contains(res.Output, "[exit status 3]") || res.Summary != "exit 3" {
		t.Errorf("exit 3: %q (%s)", res.Output, res.Summary)
	}
	ws, _ = editorWorkspace(t, nil, terminal{keep: 10})
	run = toolByName(t, ws, Limits{}, "run_command")
	res = mustCall(t, run, map[string]any{"command": "seq 1 100"})
	if !strings.Contains(res.Output, "the terminal kept only the end") || !strings.Contains(res.Output, "100") || strings.Contains(res.Output, "\n1\n") {
		t.Errorf("a truncated terminal: %q", res.Output)
	}
}

// TestTerminalExitReadsLikeExec: how an editor's terminal ended reads as
// exec's errors do, and a terminal that reports no status is an error.
func TestTerminalExitReadsLikeExec(t *testing.T) {
	for _, c := range []struct {
		res  TerminalResult
		want string
		code int
	}{
		{TerminalResult{ExitCode: 2}, "exit status 2", 2},
		{TerminalResult{ExitCode: -1, Signal: "SIGKILL"}, "signal: SIGKILL", -1},
		{TerminalResult{ExitCode: -1}, "the terminal reported no exit status", 0},
	} {
		err := exitOf(c.res)
		var coder exitCoder
		if err == nil || err.Error() != c.want || errors.As(err, &coder) && coder.ExitCode() != c.code {
			t.Errorf("exitOf(%+v) = %v", c.res, err)
		}
	}
	if err := exitOf(TerminalResult{}); err != nil {
		t.Errorf("exitOf(status 0) = %v", err)
	}
}
