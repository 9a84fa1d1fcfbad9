package worktree

import (
	"bytes"
	"testing"
)

// TestOutputPastItsBoundIsDropped: what a git command prints past its
// bound is counted, not kept, and the write never fails, so git runs to
// its exit status instead of dying on a broken pipe.
func TestOutputPastItsBoundIsDropped(t *testing.T) {
	b := limitedBuffer{max: 8}
	for _, chunk := range []string{"12345", "6789", "abc"} {
		if n, err := b.Write([]byte(chunk)); n != len(chunk) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", chunk, n, err)
		}
	}
	if !b.over || !bytes.Equal(b.Bytes(), []byte("12345678")) {
		t.Errorf("kept %q, over %v", b.Bytes(), b.over)
	}
}
