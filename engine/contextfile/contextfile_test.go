package contextfile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A missing file is nothing; a file is its text, trimmed.
func TestReadAFile(t *testing.T) {
	root := t.TempDir()
	if text, note := Read(root, filepath.Join(root, "AGENTS.md"), 1024); text != "" || note != "" {
		t.Errorf("a missing file: %q, %q", text, note)
	}
	write(t, filepath.Join(root, "AGENTS.md"), "\n  Use tabs.\n\n")
	if text, note := Read(root, filepath.Join(root, "AGENTS.md"), 1024); text != "Use tabs." || note != "" {
		t.Errorf("a file: %q, %q", text, note)
	}
}

// A file over the cap is cut at it, never inside a character, and both
// the prompt and the person are told.
func TestReadCutsAtTheCapOnACharacter(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "AGENTS.md"), strings.Repeat("é", 1500)) // 3000 bytes
	text, note := Read(root, filepath.Join(root, "AGENTS.md"), 2047)
	body, tail, ok := strings.Cut(text, "\n… [cut: AGENTS.md is larger than 1 KiB]")
	if !ok || tail != "" || body != strings.Repeat("é", 1023) {
		t.Errorf("cut text: %d bytes, ends %q", len(body), text[max(len(text)-60, 0):])
	}
	if note != "AGENTS.md is 2 KiB; only its first 1 KiB are in the prompt" {
		t.Errorf("note %q", note)
	}
}

// The attacks a repository can make with its context file: a link out
// of the workspace (to the person's secrets) and a FIFO that would hang
// the start are skipped, and the person told.
func TestReadSkipsWhatARepositoryPlants(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	write(t, filepath.Join(outside, "secret"), "API_KEY=sk-live")
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	text, note := Read(root, filepath.Join(root, "AGENTS.md"), 1024)
	if text != "" || !strings.Contains(note, "AGENTS.md") || !strings.Contains(note, "not in the prompt") {
		t.Errorf("a link out of the workspace: %q, %q", text, note)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "CLAUDE.md"), 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	if text, note := Read(root, filepath.Join(root, "CLAUDE.md"), 1024); text != "" || note == "" {
		t.Errorf("a FIFO: %q, %q", text, note)
	}
}

// A name outside root is shown whole.
func TestDisplayNameOutsideRoot(t *testing.T) {
	if got := displayName("/work/ws", "/etc/AGENTS.md"); got != "/etc/AGENTS.md" {
		t.Errorf("displayName = %q", got)
	}
	if got := displayName("/work/ws", "/work/ws/a/AGENTS.md"); got != "a/AGENTS.md" {
		t.Errorf("displayName = %q", got)
	}
}

func call(path string) json.RawMessage {
	data, _ := json.Marshal(map[string]string{"path": path})
	return data
}

// The first call below a folder with its own file gets that file's
// instructions, and those of the folders between, once each; the
// preferred name wins; calls at the root, outside it, or without a path
// get nothing.
func TestNestedGivesEachFolderFileOnce(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "AGENTS.md"), "root rules") // the system prompt's, never given here
	write(t, filepath.Join(root, "api", "AGENTS.md"), "api rules")
	write(t, filepath.Join(root, "api", "CLAUDE.md"), "claude api rules")
	write(t, filepath.Join(root, "api", "v2", "CLAUDE.md"), "v2 rules")
	write(t, filepath.Join(root, "api", "v2", "handler.go"), "package v2")
	n := NewNested(root, 1024, "AGENTS.md", "CLAUDE.md")

	text, notes := n.ForCall(call("api/v2/handler.go"))
	if !strings.Contains(text, "[Instructions from api/AGENTS.md; they apply to files under api/]\napi rules") ||
		!strings.Contains(text, "[Instructions from api/v2/CLAUDE.md; they apply to files under api/v2/]\nv2 rules") ||
		strings.Contains(text, "claude api rules") || strings.Contains(text, "root rules") || len(notes) != 0 {
		t.Errorf("first call below api/v2:\n%s\nnotes %v", text, notes)
	}
	if text, _ := n.ForCall(call(filepath.Join(root, "api", "v2"))); text != "" {
		t.Errorf("a second call, to the folder itself, gave again:\n%s", text)
	}
	for _, args := range []json.RawMessage{call("README.md"), call("../elsewhere/x.go"), call(""), json.RawMessage(`{"path": 3}`), json.RawMessage(`{}`)} {
		if text, notes := n.ForCall(args); text != "" || notes != nil {
			t.Errorf("ForCall(%s) = %q, %v", args, text, notes)
		}
	}
	var none *Nested
	if text, _ := none.ForCall(call("api/x.go")); text != "" {
		t.Error("a nil Nested gave instructions")
	}
}

// A folder file that is cut or skipped is noted for the person.
func TestNestedNotesWhatItCutOrSkipped(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	write(t, filepath.Join(root, "big", "AGENTS.md"), strings.Repeat("x", 4096))
	write(t, filepath.Join(outside, "secret"), "token")
	if err := os.MkdirAll(filepath.Join(root, "linked"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "linked", "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	n := NewNested(root, 1024, "AGENTS.md")
	text, notes := n.ForCall(call("big/x.go"))
	if !strings.Contains(text, "[cut: big/AGENTS.md is larger than 1 KiB]") || len(notes) != 1 || !strings.Contains(notes[0], "big/AGENTS.md is 4 KiB") {
		t.Errorf("a big file: %q, %v", text[max(len(text)-80, 0):], notes)
	}
	text, notes = n.ForCall(call("linked/x.go"))
	if text != "" || len(notes) != 1 || !strings.Contains(notes[0], "skipped linked/AGENTS.md") {
		t.Errorf("a link out: %q, %v", text, notes)
	}
}
