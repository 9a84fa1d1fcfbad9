package tools

import (
	"context"
	"slices"
	"testing"
)

// TestPathsForMentions: the @mention completion lists files and folders
// (folders with a trailing /) in tree order, without .git, ignored or
// withheld entries, and at most as many as asked, saying there were
// more.
func TestPathsForMentions(t *testing.T) {
	ws := newTree(t, map[string]string{
		"a.go": "", "b/c.go": "", "b/d/e.go": "", ".git/config": "", ".gitignore": "build/\n", "build/out": "", "secret.env": "",
	})
	ctx := WithWithhold(context.Background(), denySecrets)
	paths, more, err := Paths(ctx, ws, 100)
	want := []string{".gitignore", "a.go", "b/", "b/c.go", "b/d/", "b/d/e.go"}
	if err != nil || more || !slices.Equal(paths, want) {
		t.Errorf("Paths = %q, more %v, %v; want %q", paths, more, err, want)
	}
	paths, more, err = Paths(ctx, ws, 3)
	if err != nil || !more || !slices.Equal(paths, want[:3]) {
		t.Errorf("Paths(3) = %q, more %v, %v", paths, more, err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := Paths(cancelled, ws, 100); err == nil {
		t.Error("Paths went on after its context ended")
	}
}
