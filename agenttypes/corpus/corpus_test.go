package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The corpus is found from any package, and a file copied from it is the
// file, byte for byte, in the folders asked for.
func TestCopyPutsTheFileWhereAsked(t *testing.T) {
	sources := string(Read(t, "SOURCES"))
	if !strings.Contains(sources, "copied unmodified") {
		t.Fatalf("SOURCES does not list the corpus:\n%.200s", sources)
	}
	dir := t.TempDir()
	Copy(t, "anthropics__claude-code/.claude/commands/dedupe.md", dir, ".claude/commands/deep/dedupe.md")
	got, err := os.ReadFile(filepath.Join(dir, ".claude", "commands", "deep", "dedupe.md"))
	if err != nil || string(got) != string(Read(t, "anthropics__claude-code/.claude/commands/dedupe.md")) {
		t.Errorf("copied %d bytes, %v", len(got), err)
	}
}

// A path missing from the corpus fails the test that asked for it.
func TestReadOfAMissingFileFails(t *testing.T) {
	ft := &fatal{TB: t}
	func() {
		defer func() { _ = recover() }()
		Read(ft, "no/such/file.md")
	}()
	if !ft.failed {
		t.Error("reading a missing file did not fail the test")
	}
}

// A copy into a folder that cannot be made fails the test.
func TestCopyIntoAFileFails(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "plain"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ft := &fatal{TB: t}
	func() {
		defer func() { _ = recover() }()
		Copy(ft, "SOURCES", dir, "plain/inside/SOURCES")
	}()
	if !ft.failed {
		t.Error("copying below a plain file did not fail the test")
	}
}

// fatal records a Fatalf and stops the caller as testing would.
type fatal struct {
	testing.TB
	failed bool
}

func (f *fatal) Helper() {}

func (f *fatal) Fatalf(string, ...any) {
	f.failed = true
	panic("fatal")
}
