package sessiontest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// WriteFile creates a file, and the folders above it, in dir.
func WriteFile(t testing.TB, dir, name, content string) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// GitRepo makes dir a repository on branch main with its files committed.
func GitRepo(t testing.TB, dir string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "first"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// NewRecorded makes a transcript store, a workspace and a new session
// folder in it.
func NewRecorded(t testing.TB, r *transcript.Redactor) (*transcript.Store, string, *transcript.Dir) {
	t.Helper()
	return NewRecordedIn(t, t.TempDir(), r)
}

// NewRecordedIn is NewRecorded with the store at root.
func NewRecordedIn(t testing.TB, root string, r *transcript.Redactor) (*transcript.Store, string, *transcript.Dir) {
	t.Helper()
	store := transcript.NewStore(root, r)
	workspace := t.TempDir()
	dir, err := store.Create(workspace, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return store, workspace, dir
}

// Contains fails the test unless s contains sub; what names s.
func Contains(t testing.TB, what, s, sub string) {
	t.Helper()
	if !strings.Contains(s, sub) {
		t.Fatalf("%s: %q does not contain %q", what, s, sub)
	}
}
