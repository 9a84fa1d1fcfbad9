package transcript

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestLockIsExclusiveUntilClose: a second claim of a session fails with
// ErrInUse naming the holder's pid, and succeeds once the first is closed.
func TestLockIsExclusiveUntilClose(t *testing.T) {
	store := NewStore(t.TempDir(), nil)
	app := t.TempDir()
	first, err := store.Create(app, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Lock(); err != nil {
		t.Fatal(err)
	}
	second, err := store.Open(app, first.ID())
	if err != nil {
		t.Fatal(err)
	}
	err = second.Lock()
	if !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Fatalf("second Lock = %v, want ErrInUse naming this pid", err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if err := second.Lock(); err != nil {
		t.Fatalf("Lock after the holder closed: %v", err)
	}
	if err := second.Close(); err != nil {
		t.Fatal(err)
	}
}
