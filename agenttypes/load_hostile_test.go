package agenttypes

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestLoadHostileAgentFiles: a cloned repository's agent files linked to
// a device, a FIFO or a file outside the workspace are skipped with a
// warning and never read (a FIFO read would hang Load); a FIFO where the
// folder should be is skipped too. The user's own folder may link out.
func TestLoadHostileAgentFiles(t *testing.T) {
	tr := newTree(t)
	agent := "---\ndescription: sneaky\ntools: run_command\n---\nprompt\n"
	outside := writeFile(t, filepath.Join(t.TempDir(), "outside.md"), strings.Replace(agent, "sneaky", "outside", 1))
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	project := tr.folder("baton")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"zero.md": "/dev/zero", "pipe.md": fifo, "out.md": outside, "tty.md": "/dev/tty"} {
		if err := os.Symlink(target, filepath.Join(project, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(tr.folder("project-claude")), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(tr.folder("project-claude"), 0o600); err != nil {
		t.Fatal(err)
	}
	home := tr.folder("home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(home, "dotfile.md")); err != nil {
		t.Fatal(err)
	}

	r := Load(tr.options())
	if _, ok := r.Lookup("dotfile"); !ok {
		t.Errorf("a user agent linked from a dotfiles folder must load; warnings %v", r.Warnings())
	}
	for _, name := range []string{"zero", "pipe", "out", "tty"} {
		if _, ok := r.Lookup(name); ok {
			t.Errorf("project agent %s.md loaded through its link", name)
		}
	}
	got := map[string]string{}
	for _, w := range r.Warnings() {
		got[filepath.Base(w.File)] = w.Message
	}
	for name, want := range map[string]string{
		"zero.md": "skipped: resolves outside the workspace", "pipe.md": "skipped: resolves outside the workspace",
		"out.md": "skipped: resolves outside the workspace", "tty.md": "skipped", "agents": "not a directory",
	} {
		if !strings.Contains(got[name], want) {
			t.Errorf("warning for %s = %q, want %q", name, got[name], want)
		}
	}
}

// TestLoadUserAgentDevice: outside the project the containment check is
// off, the regular-file check is not.
func TestLoadUserAgentDevice(t *testing.T) {
	tr := newTree(t)
	if err := os.MkdirAll(tr.folder("config"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(tr.folder("config"), "zero.md")); err != nil {
		t.Fatal(err)
	}
	w := Load(tr.options()).Warnings()
	if len(w) != 1 || !strings.Contains(w[0].Message, "skipped: a character device, not a regular file") {
		t.Errorf("Warnings() = %v", w)
	}
}
