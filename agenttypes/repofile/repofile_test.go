package repofile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadRefusesWhatIsNotARegularFileInside performs the attacks a cloned
// repository can: symlinks to process memory, devices, a FIFO with no
// writer, the terminal and a file outside. Each returns at once (a read of
// the FIFO or the terminal would block the test forever) with ErrSkipped
// and no data.
func TestReadRefusesWhatIsNotARegularFileInside(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("OUTSIDE-SECRET"), 0o600); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	inFifo := filepath.Join(root, "fifo.md")
	if err := syscall.Mkfifo(inFifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "dir.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"environ.md": "/proc/self/environ",
		"zero.md":    "/dev/zero",
		"tty.md":     "/dev/tty",
		"stdin.md":   "/dev/stdin",
		"pipe.md":    fifo,
		"outside.md": outside,
		"up.md":      "../" + filepath.Base(filepath.Dir(outside)) + "/secret.txt",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"environ.md", "zero.md", "tty.md", "stdin.md", "pipe.md", "outside.md", "up.md", "fifo.md", "dir.md"} {
		t.Run(name, func(t *testing.T) {
			f, err := Read(root, filepath.Join(root, name), 1<<10)
			if errors.Is(err, fs.ErrNotExist) && (name == "tty.md" || name == "stdin.md") {
				return // no such device in this sandbox: nothing read either
			}
			if !errors.Is(err, ErrSkipped) {
				t.Fatalf("Read = %q, %v; want ErrSkipped", f.Data, err)
			}
			if len(f.Data) != 0 {
				t.Errorf("data read: %q", f.Data)
			}
			if !strings.Contains(err.Error(), name) {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

// TestReadWithoutRootStillRefusesDevices is the user-level case: the
// containment check is off, the regular-file check is not.
func TestReadWithoutRootStillRefusesDevices(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "agent.md")
	if err := os.WriteFile(outside, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"zero.md": "/dev/zero", "elsewhere.md": outside} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Read("", filepath.Join(dir, "zero.md"), 1<<10); !errors.Is(err, ErrSkipped) {
		t.Errorf("/dev/zero without root: %v, want ErrSkipped", err)
	}
	f, err := Read("", filepath.Join(dir, "elsewhere.md"), 1<<10)
	if err != nil || string(f.Data) != "hello" {
		t.Errorf("link outside without root = %q, %v; want it read", f.Data, err)
	}
}

func TestReadCapsAndCuts(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "big.md")
	if err := os.WriteFile(path, []byte(strings.Repeat("x", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Read(root, path, 40)
	if err != nil || len(f.Data) != 40 || !f.Cut || f.Size != 100 {
		t.Errorf("Read over the cap = %d bytes, cut %v, size %d, %v", len(f.Data), f.Cut, f.Size, err)
	}
	f, err = Read(root, path, 100)
	if err != nil || len(f.Data) != 100 || f.Cut {
		t.Errorf("Read at the cap = %d bytes, cut %v, %v", len(f.Data), f.Cut, err)
	}
}

func TestReadInsideThroughSymlinksAndMissing(t *testing.T) {
	real := t.TempDir()
	if err := os.WriteFile(filepath.Join(real, "AGENTS.md"), []byte("be nice"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(real, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../AGENTS.md", filepath.Join(real, "docs", "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	// The workspace is reached through a symlink of its own.
	root := filepath.Join(t.TempDir(), "ws")
	if err := os.Symlink(real, root); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"AGENTS.md", "docs/CLAUDE.md"} {
		f, err := Read(root, filepath.Join(root, p), 1<<10)
		if err != nil || string(f.Data) != "be nice" {
			t.Errorf("%s = %q, %v", p, f.Data, err)
		}
	}
	if _, err := Read(root, filepath.Join(root, "nope.md"), 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
	if err := os.Symlink(filepath.Join(t.TempDir(), "gone"), filepath.Join(real, "dangling.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(root, filepath.Join(root, "dangling.md"), 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("dangling link: %v, want fs.ErrNotExist", err)
	}
}

// TestReadRefusesASiblingSharingTheRootsName is the attack on the
// shortcut that skips resolving the root: a link to a folder beside the
// workspace whose name starts with the workspace's (ws-secrets beside
// ws) lies under the root's name as a string, not as a folder.
func TestReadRefusesASiblingSharingTheRootsName(t *testing.T) {
	parent := t.TempDir()
	root := filepath.Join(parent, "ws")
	sibling := filepath.Join(parent, "ws-secrets")
	for _, dir := range []string{root, sibling} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(sibling, "key.txt"), []byte("SIBLING-SECRET"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(sibling, "key.txt"), filepath.Join(root, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	f, err := Read(root, filepath.Join(root, "AGENTS.md"), 1<<10)
	if !errors.Is(err, ErrSkipped) || len(f.Data) != 0 {
		t.Fatalf("Read = %q, %v; want ErrSkipped and nothing read", f.Data, err)
	}
	if !strings.Contains(err.Error(), "outside the workspace") {
		t.Errorf("error %q does not say the file leads outside", err)
	}
}

// TestWithinComparesWholeFolders: a folder holds a path only at a
// separator, the root holds every absolute path, and a relative folder
// is never taken as resolved.
func TestWithinComparesWholeFolders(t *testing.T) {
	for _, c := range []struct {
		dir, path string
		want      bool
	}{
		{"/a/ws", "/a/ws", true},
		{"/a/ws", "/a/ws/AGENTS.md", true},
		{"/a/ws", "/a/ws-secrets/key", false},
		{"/a/ws", "/a", false},
		{"/", "/etc/passwd", true},
		{"ws", "ws/AGENTS.md", false},
	} {
		if got := within(c.dir, c.path); got != c.want {
			t.Errorf("within(%q, %q) = %v, want %v", c.dir, c.path, got, c.want)
		}
	}
}
