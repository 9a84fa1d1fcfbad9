package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// keep reads a file through Update without changing it.
func keep(t *testing.T, ws *Workspace, path string) (string, bool, error) {
	t.Helper()
	var got string
	var exists bool
	err := ws.Update(context.Background(), filepath.Join(ws.Root(), path), func(old []byte, ok bool) (FileUpdate, error) {
		got, exists = string(old), ok
		return FileUpdate{Keep: true}, nil
	})
	return got, exists, err
}

// TestUpdateWritesAReviewedChange: a change creates a file (executable
// when asked), rewrites one keeping its mode, deletes one, and leaves a
// file alone when the change says so or fails.
func TestUpdateWritesAReviewedChange(t *testing.T) {
	ws := newTree(t, map[string]string{"a.txt": "old\n", "gone.txt": "bye\n"})
	ctx := context.Background()
	set := func(path string, u FileUpdate) error {
		return ws.Update(ctx, filepath.Join(ws.Root(), path), func([]byte, bool) (FileUpdate, error) { return u, nil })
	}
	if err := set("bin/run.sh", FileUpdate{Data: []byte("#!/bin/sh\n"), Executable: true}); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(filepath.Join(ws.Root(), "bin", "run.sh")); err != nil || info.Mode().Perm()&0o100 == 0 {
		t.Errorf("a new executable file: %v, %v", info, err)
	}
	if err := set("a.txt", FileUpdate{Data: []byte("new\n"), Executable: true}); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(filepath.Join(ws.Root(), "a.txt")); info.Mode().Perm() != 0o644 {
		t.Errorf("an existing file's mode became %v", info.Mode())
	}
	if got, exists, err := keep(t, ws, "a.txt"); err != nil || !exists || got != "new\n" {
		t.Errorf("a.txt = %q, %v, %v", got, exists, err)
	}
	if err := set("gone.txt", FileUpdate{Delete: true}); err != nil {
		t.Fatal(err)
	}
	if err := set("never.txt", FileUpdate{Delete: true}); err != nil {
		t.Errorf("deleting a file already gone: %v", err)
	}
	if _, exists, err := keep(t, ws, "gone.txt"); err != nil || exists {
		t.Errorf("gone.txt: exists %v, %v", exists, err)
	}
	boom := errors.New("the change does not apply")
	err := ws.Update(ctx, filepath.Join(ws.Root(), "a.txt"), func([]byte, bool) (FileUpdate, error) { return FileUpdate{}, boom })
	if !errors.Is(err, boom) {
		t.Errorf("a failing change: %v", err)
	}
	if got, _, _ := keep(t, ws, "a.txt"); got != "new\n" {
		t.Errorf("a failing change wrote %q", got)
	}
}

// TestUpdateGoesThroughTheWriteGuards: a reviewed change reaches only
// regular files inside the workspace: never a path outside, through a
// symlink out, into a git directory, or a FIFO (which would block the
// read), a folder or a file too large to merge in memory.
func TestUpdateGoesThroughTheWriteGuards(t *testing.T) {
	ws := newTree(t, map[string]string{"a.txt": "a\n", ".git/config": "[core]\n", "dir/x": "x"})
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(ws.Root(), "out")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(ws.Root(), "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(ws.Root(), "big.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(maxUpdateBytes + 1); err != nil {
		t.Fatal(err)
	}
	big.Close()
	for path, want := range map[string]string{
		filepath.Join(outside, "x"):                "outside the workspace",
		filepath.Join(ws.Root(), "out", "planted"): "through a symlink",
		filepath.Join(ws.Root(), ".git", "config"): ".git",
		filepath.Join(ws.Root(), "pipe"):           "not a regular file",
		filepath.Join(ws.Root(), "dir"):            "not a regular file",
		filepath.Join(ws.Root(), "big.bin"):        "larger than 64 MiB",
	} {
		called := false
		err := ws.Update(context.Background(), path, func([]byte, bool) (FileUpdate, error) {
			called = true
			return FileUpdate{Data: []byte("pwned\n")}, nil
		})
		if err == nil || !strings.Contains(err.Error(), want) || called {
			t.Errorf("Update(%s): %v (change called %v), want %q", path, err, called, want)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "planted")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("planted outside: %v", err)
	}
}
