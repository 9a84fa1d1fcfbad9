package tools

import (
	"context"
	"encoding/json"
	"errors"
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
