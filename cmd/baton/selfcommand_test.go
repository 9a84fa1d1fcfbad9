package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The hint printed on the way out names a command that runs this very
// baton from the person's shell, whichever way it was started.
func TestSelfCommandNamesAProgramThatExists(t *testing.T) {
	dir := t.TempDir()
	exe := writeExecutable(t, filepath.Join(dir, "install", "baton"))
	linked := filepath.Join(dir, "bin")
	if err := os.MkdirAll(linked, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(linked, "baton")); err != nil {
		t.Fatal(err)
	}
	other := writeExecutable(t, filepath.Join(dir, "other", "baton"))
	goRun := writeExecutable(t, filepath.Join(dir, "go-build1234", "b001", "exe", "baton"))
	for _, tc := range []struct {
		name string
		c    selfCommand
		want string
	}{
		{"installed on the PATH", selfCommand{exe: exe, path: filepath.Dir(exe)}, "baton --continue"},
		{"a link on the PATH", selfCommand{exe: exe, path: "/nonexistent:" + linked}, "baton --continue"},
		{"another baton first on the PATH", selfCommand{exe: exe, path: filepath.Dir(other) + ":" + filepath.Dir(exe)}, exe + " --continue"},
		{"not on the PATH", selfCommand{exe: exe, path: "/nonexistent"}, exe + " --continue"},
		{"a relative PATH entry", selfCommand{exe: exe, path: "."}, exe + " --continue"},
		{"go run", selfCommand{exe: goRun, path: filepath.Dir(exe)}, "go run ./cmd/baton --continue"},
		{"make run", selfCommand{exe: goRun, underMake: true}, "make run ARGS=--continue"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.c.with("--continue"); got != tc.want {
				t.Errorf("with(--continue) = %q, want %q", got, tc.want)
			}
		})
	}
	if got := (selfCommand{exe: goRun, underMake: true}).with("--resume 2026-01-02-abc"); got != "make run ARGS='--resume 2026-01-02-abc'" {
		t.Errorf("make run with two words = %q", got)
	}
}

// The path a hint names is quoted so the shell runs that program even
// when its folder holds spaces or quotes, and not anything a name with
// shell syntax would run.
func TestSelfCommandQuotesThePath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "it's here; rm -rf x")
	exe := writeExecutable(t, filepath.Join(dir, "baton"))
	line := selfCommand{exe: exe}.with("--continue")
	out, err := exec.Command("sh", "-c", "printf '%s\\n' "+line).Output()
	if err != nil {
		t.Fatalf("sh -c %s: %v", line, err)
	}
	if got := strings.Split(strings.TrimSpace(string(out)), "\n"); len(got) != 2 || got[0] != exe || got[1] != "--continue" {
		t.Errorf("the shell reads %q as %q", line, got)
	}
}

// writeExecutable writes a small executable file at path.
func writeExecutable(t *testing.T, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}
