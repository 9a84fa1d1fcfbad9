package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// TestFreshHomeGetsAWritableCache: on a home with no ~/.cache (a fresh
// container), a sandboxed command can still create a build cache there,
// as `go test` must.
func TestFreshHomeGetsAWritableCache(t *testing.T) {
	if !sandbox.Available() {
		t.Skip("the kernel has no Landlock: " + sandbox.Unavailable())
	}
	home, ws := t.TempDir(), t.TempDir()
	env := map[string]string{"HOME": home, "TMPDIR": os.TempDir()}
	p := sandboxPolicy(sandboxConfig{}, env, ws)
	var out bytes.Buffer
	err := sandbox.Run(context.Background(), p, "mkdir -p \"$HOME/.cache/go-build/00\" && echo ok", ws, []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}, &out)
	if err != nil || !bytes.Contains(out.Bytes(), []byte("ok")) {
		t.Fatalf("creating the build cache: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(filepath.Join(home, ".cache", "go-build", "00")); err != nil {
		t.Fatalf("the cache was not created: %v", err)
	}
}
