package realpath

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// root is a temporary folder with its own symlinks resolved (a temp dir
// may itself sit behind one, as /tmp does on macOS).
func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// An existing path, and one below it that does not exist yet, resolve
// through the links on the way.
func TestResolveFollowsLinksOfTheExistingPrefix(t *testing.T) {
	dir := root(t)
	if err := os.Mkdir(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, "real", filepath.Join(dir, "alias"))
	for p, want := range map[string]string{
		filepath.Join(dir, "alias"):                   filepath.Join(dir, "real"),
		filepath.Join(dir, "alias", "new", "file.go"): filepath.Join(dir, "real", "new", "file.go"),
		filepath.Join(dir, "plain", "file.go"):        filepath.Join(dir, "plain", "file.go"),
	} {
		if got, err := Resolve(p); err != nil || got != want {
			t.Errorf("Resolve(%s) = %q, %v; want %q", p, got, err, want)
		}
	}
}

// A dangling link is followed by hand to where a write through it would
// create its target: relative to the link's folder, or absolute — the
// attack a guard checking only the link's own path would miss.
func TestResolveFollowsADanglingLinkToItsTarget(t *testing.T) {
	dir, outside := root(t), root(t)
	symlink(t, filepath.Join(outside, "planted"), filepath.Join(dir, "escape"))
	if got, err := Resolve(filepath.Join(dir, "escape", "x")); err != nil || got != filepath.Join(outside, "planted", "x") {
		t.Errorf("an absolute dangling link resolved to %q, %v", got, err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, "../later", filepath.Join(dir, "sub", "up"))
	if got, err := Resolve(filepath.Join(dir, "sub", "up")); err != nil || got != filepath.Join(dir, "later") {
		t.Errorf("a relative dangling link resolved to %q, %v", got, err)
	}
	symlink(t, "step2", filepath.Join(dir, "step1"))
	symlink(t, filepath.Join(outside, "end"), filepath.Join(dir, "step2"))
	if got, err := Resolve(filepath.Join(dir, "step1")); err != nil || got != filepath.Join(outside, "end") {
		t.Errorf("a chain of dangling links resolved to %q, %v", got, err)
	}
}

// A loop of links ends in an error, not a hang.
func TestResolveStopsALoop(t *testing.T) {
	dir := root(t)
	symlink(t, "b", filepath.Join(dir, "a"))
	symlink(t, "a", filepath.Join(dir, "b"))
	if got, err := Resolve(filepath.Join(dir, "a", "x")); err == nil || !strings.Contains(err.Error(), "symbolic links") {
		t.Errorf("a loop resolved to %q, %v", got, err)
	}
}

// deepFolder makes a folder whose real path is longer than the kernel
// takes in one path (PATH_MAX, 4096 bytes) and returns a short name of
// it, made of links each standing for the folder before it.
func deepFolder(t *testing.T, dir string) string {
	t.Helper()
	short, segment := dir, strings.Repeat("d", 200)
	for i := 0; i < 22; i++ {
		if err := os.Mkdir(filepath.Join(short, segment), 0o755); err != nil {
			t.Fatal(err)
		}
		next := filepath.Join(dir, fmt.Sprintf("s%d", i))
		symlink(t, filepath.Join(short, segment), next)
		short = next
	}
	return short
}

// A path the kernel reaches but whose real form cannot be written out
// (it is longer than any path the kernel takes) is an error, never a
// path checked in its place: a repository can make one with links.
func TestResolveRefusesAPathTooLongToWriteOut(t *testing.T) {
	dir := root(t)
	deep := deepFolder(t, dir)
	if err := os.WriteFile(filepath.Join(deep, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	symlink(t, "file", filepath.Join(deep, "link"))
	symlink(t, filepath.Join(deep, "file"), filepath.Join(dir, "far"))
	for _, p := range []string{
		filepath.Join(deep, "file"),        // a file, not a link
		filepath.Join(deep, "link", "new"), // a link beside the file
		filepath.Join(dir, "far"),          // a link to it
	} {
		if got, err := Resolve(p); err == nil {
			t.Errorf("Resolve(%s) = %q, want an error", p, got)
		}
	}
}
