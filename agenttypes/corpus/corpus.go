// Package corpus hands tests the files in testdata/agents/real: agent,
// command, settings and permission files from public repositories and npm
// packages, copied unmodified (its SOURCES says from where), so baton is
// tested against what people wrote rather than what we imagine they
// write.
package corpus

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Dir is the corpus folder, found from this file's place in the
// repository, so a test in any package reaches it.
func Dir() string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "..", "testdata", "agents", "real")
}

// Read returns the corpus file at path (slash-separated, below Dir),
// failing the test if it cannot.
func Read(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(Dir(), filepath.FromSlash(path)))
	if err != nil {
		t.Fatalf("corpus: %v", err)
	}
	return data
}

// Copy puts the corpus file at path into dir at rel (slash-separated),
// making the folders on the way.
func Copy(t testing.TB, path, dir, rel string) {
	t.Helper()
	dst := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatalf("corpus: %v", err)
	}
	if err := os.WriteFile(dst, Read(t, path), 0o644); err != nil {
		t.Fatalf("corpus: %v", err)
	}
}
