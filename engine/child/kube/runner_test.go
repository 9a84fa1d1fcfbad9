package kube

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A workspace bundle past the cap is refused on baton's machine, naming
// its size and the cap; one at the cap goes.
func TestBundleFits(t *testing.T) {
	bundle := filepath.Join(t.TempDir(), "workspace.bundle")
	if err := os.WriteFile(bundle, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	// A sparse file: its size is all bundleFits reads.
	if err := os.Truncate(bundle, MaxBundle); err != nil {
		t.Fatal(err)
	}
	if err := bundleFits(bundle); err != nil {
		t.Fatalf("a bundle at the cap: %v", err)
	}
	if err := os.Truncate(bundle, MaxBundle+(3<<19)); err != nil {
		t.Fatal(err)
	}
	err := bundleFits(bundle)
	if err == nil || !strings.Contains(err.Error(), "65.5 MiB, more than the kubernetes runner sends (64 MiB)") {
		t.Fatalf("err = %v, want the size and the cap named", err)
	}
}
