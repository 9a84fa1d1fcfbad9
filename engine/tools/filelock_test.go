package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestFileLockWaitsAndCancels: a second locker of one file waits until
// the first unlocks; a cancelled waiter gives up instead of hanging; a
// context that holds the lock (Preview, then Run) takes it again freely;
// another file is never blocked.
func TestFileLockWaitsAndCancels(t *testing.T) {
	ws := newTree(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	edit := toolByName(t, ws, Limits{}, "edit_file").(Serial)
	args := json.RawMessage(`{"path":"a.txt","old_string":"a","new_string":"x"}`)
	held, unlock, err := edit.Lock(context.Background(), args)
	if err != nil {
		t.Fatal(err)
	}
	if _, again, err := edit.Lock(held, args); err != nil {
		t.Fatalf("the holder could not take its own lock: %v", err)
	} else {
		again()
	}
	if _, other, err := edit.Lock(context.Background(), json.RawMessage(`{"path":"b.txt"}`)); err != nil {
		t.Fatalf("another file was blocked: %v", err)
	} else {
		other()
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := edit.Lock(cancelled, args); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled waiter returned %v", err)
	}
	got := make(chan error, 1)
	go func() {
		_, u, err := edit.Lock(context.Background(), args)
		if err == nil {
			u()
		}
		got <- err
	}()
	if _, err := edit.(Tool).Run(held, args); err != nil {
		t.Fatalf("Run under the held lock: %v", err)
	}
	unlock()
	if err := <-got; err != nil {
		t.Fatalf("the waiter failed: %v", err)
	}
	if readBack(t, ws, "a.txt") != "x\n" {
		t.Fatalf("a.txt holds %q", readBack(t, ws, "a.txt"))
	}
}

// TestSharedLocksHoldAcrossWorkspaces: a workspace whose locks are
// another's (a child process working for the parent baton) waits on that
// lock table: while the parent holds a file, the child's write does not
// happen, and gives up when its context ends.
func TestSharedLocksHoldAcrossWorkspaces(t *testing.T) {
	parent := newTree(t, map[string]string{"a.txt": "parent\n"})
	child, err := NewWorkspace(parent.Root())
	if err != nil {
		t.Fatal(err)
	}
	child.ShareLocks(parent)
	path := filepath.Join(parent.Root(), "a.txt")
	unlock, err := parent.Lock(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	err = child.Update(ended, path, func([]byte, bool) (FileUpdate, error) { return FileUpdate{Data: []byte("child\n")}, nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("a write while the parent holds the file: %v", err)
	}
	unlock()
	err = child.Update(context.Background(), path, func([]byte, bool) (FileUpdate, error) { return FileUpdate{Data: []byte("child\n")}, nil })
	if data, _ := os.ReadFile(path); err != nil || string(data) != "child\n" {
		t.Errorf("after the parent let go: %q, %v", data, err)
	}
}
