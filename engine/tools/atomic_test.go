package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writerEnv, when set, makes the test binary a process that rewrites the
// file it names with write_file forever (see TestSIGKILLMidWrite).
const writerEnv = "BATON_TOOLS_TEST_WRITER"

// nextStartEnv, when set, makes the test binary a process that writes
// the file it names once with write_file: the next baton after a crash.
const nextStartEnv = "BATON_TOOLS_TEST_NEXT_START"

// stuckWriterEnv, when set, makes the test binary a process that stops
// in the middle of writing the file it names, to be killed there.
const stuckWriterEnv = "BATON_TOOLS_TEST_STUCK_WRITER"

// namedTempsEnv, when set, makes the test binary's writes use named
// temporary files, as where the kernel has no unnamed ones.
const namedTempsEnv = "BATON_TOOLS_TEST_NAMED_TEMPS"

// bigSize is the size of each version the writer process writes: large
// enough that a write takes a while, so a kill lands inside one.
const bigSize = 4 << 20

// rewriteForever alternates the whole content of path between two
// versions through the write_file tool; it says "ready" after the first.
// The two calls are made once, so the loop is all writing and a kill
// lands inside a write.
func rewriteForever(path string) int {
	ws, err := NewWorkspace(filepath.Dir(path))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	tool, _ := NewSet(Base(ws, Limits{}, testBox(ws))...).Get("write_file")
	var versions [2]json.RawMessage
	for i := range versions {
		content := strings.Repeat(string(rune('a'+i)), bigSize-1) + "\n"
		versions[i], _ = json.Marshal(map[string]string{"path": filepath.Base(path), "content": content})
	}
	for i := 0; ; i++ {
		if _, err := tool.Run(context.Background(), versions[i%2]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if i == 0 {
			fmt.Println("ready")
		}
	}
}

// writeOnce writes path once through the write_file tool, with content
// no earlier process wrote.
func writeOnce(path string) int {
	ws, err := NewWorkspace(filepath.Dir(path))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	tool, _ := NewSet(Base(ws, Limits{}, testBox(ws))...).Get("write_file")
	content := fmt.Sprintf("after the crash, by process %d\n", os.Getpid())
	args, _ := json.Marshal(map[string]string{"path": filepath.Base(path), "content": content})
	if _, err := tool.Run(context.Background(), args); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// wholeVersion reports whether data is one complete version: bigSize
// bytes of a single letter and a newline.
func wholeVersion(data []byte) bool {
	return len(data) == bigSize && data[bigSize-1] == '\n' &&
		bytes.Count(data[:bigSize-1], data[:1]) == bigSize-1
}

// TestSIGKILLMidWrite kills a real process that rewrites a 4 MB file
// without pause. Every read while it runs, and the file after the kill,
// is a whole version; and the original file, held open from before the
// first write, still holds its whole content: it was replaced by a rename,
// never truncated or written in place (os.WriteFile fails that at once).
// No temporary file is left in the folder once the next baton has
// written there.
func TestSIGKILLMidWrite(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("writes hundreds of megabytes")
	}
	ws := newTree(t, map[string]string{"big.txt": strings.Repeat("o", bigSize-1) + "\n"})
	path := filepath.Join(ws.Root(), "big.txt")
	original, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer original.Close()
	cmd := testProcess(t, writerEnv+"="+path)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "ready\n" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("the writer did not start: %q %v", line, err)
	}
	for i := range 10 {
		data, err := os.ReadFile(path)
		if err != nil || !wholeVersion(data) {
			t.Errorf("read %d while writing: %d bytes, err %v: not a whole version", i, len(data), err)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	data, err := os.ReadFile(path)
	if err != nil || !wholeVersion(data) {
		t.Fatalf("after SIGKILL the file holds %d bytes (err %v), not a whole version", len(data), err)
	}
	if data, err := io.ReadAll(original); err != nil || !wholeVersion(data) || data[0] != 'o' {
		t.Fatalf("the original file was written in place: %d bytes (err %v)", len(data), err)
	}
	if out, err := testProcess(t, nextStartEnv+"="+path).CombinedOutput(); err != nil {
		t.Fatalf("the next start: %v\n%s", err, out)
	}
	if litter, _ := filepath.Glob(filepath.Join(ws.Root(), ".*.tmp")); len(litter) != 0 {
		t.Fatalf("temporary files left in the tree after the next start: %v", litter)
	}
}

// TestKilledWritersTemporaryFileIsSwept: where temporary files must be
// named, a writer killed between writing its temporary file and renaming
// it leaves that file; the next baton's write of the same file removes
// it, but never while the writer that holds it is alive.
func TestKilledWritersTemporaryFileIsSwept(t *testing.T) {
	t.Parallel()
	ws := newTree(t, map[string]string{"a.txt": "old\n"})
	path := filepath.Join(ws.Root(), "a.txt")
	writer := testProcess(t, stuckWriterEnv+"="+path)
	stdout, err := writer.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := writer.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = writer.Process.Kill(); _ = writer.Wait() }()
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("the writer did not start: %q %v", line, err)
	}
	litter := func() []string {
		names, _ := filepath.Glob(filepath.Join(ws.Root(), ".a.txt.baton-*.tmp"))
		return names
	}
	if len(litter()) != 1 {
		t.Fatalf("the stuck writer's temporary file: %v", litter())
	}
	nextStart := func() {
		t.Helper()
		if out, err := testProcess(t, nextStartEnv+"="+path, namedTempsEnv+"=1").CombinedOutput(); err != nil {
			t.Fatalf("the next start: %v\n%s", err, out)
		}
	}
	nextStart()
	if len(litter()) != 1 {
		t.Fatalf("a live writer's temporary file was removed: %v", litter())
	}
	if err := writer.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = writer.Wait()
	// The next start comes a while after the crash, not milliseconds
	// after the write (which would count as another writer's, see
	// stampSlack).
	for _, name := range litter() {
		if err := os.Chtimes(name, started.Add(-time.Minute), started.Add(-time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	nextStart()
	if got := litter(); len(got) != 0 {
		t.Fatalf("temporary files left in the tree after the next start: %v", got)
	}
	if got := readBack(t, ws, "a.txt"); !strings.HasPrefix(got, "after the crash") {
		t.Fatalf("a.txt = %q", got)
	}
}

// writeStuck opens a named temporary file for path, as a write does
// where files cannot be unnamed, writes half a version to it, says
// "ready" and waits to be killed.
func writeStuck(path string) int {
	unnamedTemps = false
	tmp, _, err := openTemp(filepath.Dir(path), filepath.Base(path))
	if err == nil {
		_, err = tmp.WriteString("half a vers")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("ready")
	select {}
}

// testProcess is the test binary run as a helper process with env added.
func testProcess(t *testing.T, env ...string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// TestSweepSparesLiveWriters: a temporary file is removed only when no
// writer holds its lock and it was last written before this process
// started (by more than the file clock's slack); files that merely look
// alike are left.
func TestSweepSparesLiveWriters(t *testing.T) {
	dir := t.TempDir()
	old := started.Add(-time.Minute)
	make := func(name string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
		return path
	}
	held := make(".a.txt.baton-0123456789ab.tmp")
	abandoned := make(".a.txt.baton-ba9876543210.tmp")
	other := make(".b.txt.baton-0123456789ab.tmp")
	lookalike := make(".a.txt.baton-mine.tmp")
	fresh := filepath.Join(dir, ".a.txt.baton-aaaaaaaaaaaa.tmp")
	if err := os.WriteFile(fresh, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Written just after this process started, stamped by the kernel's
	// coarse clock a few milliseconds before (a make test run saw it).
	stamped := filepath.Join(dir, ".a.txt.baton-bbbbbbbbbbbb.tmp")
	if err := os.WriteFile(stamped, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(stamped, started.Add(-4*time.Millisecond), started.Add(-4*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	lock, err := os.Open(held)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	sweepTemps(dir, "a.txt")
	for path, want := range map[string]bool{held: true, abandoned: false, other: true, lookalike: true, fresh: true, stamped: true} {
		if _, err := os.Lstat(path); (err == nil) != want {
			t.Errorf("%s: kept %v, want %v", filepath.Base(path), err == nil, want)
		}
	}
}

// TestWriteKeepsModeAndBreaksHardLinks: the rewritten file keeps its
// mode, and a hard link's other name still shows the old content.
func TestWriteKeepsModeAndBreaksHardLinks(t *testing.T) {
	ws := newTree(t, map[string]string{"run.sh": "echo old\n"})
	file := filepath.Join(ws.Root(), "run.sh")
	if err := os.Chmod(file, 0o751); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other-name")
	if err := os.Link(file, other); err != nil {
		t.Skipf("hard links unsupported here: %v", err)
	}
	for _, name := range []string{"write_file", "edit_file"} {
		args := map[string]any{"path": "run.sh", "content": "echo new\n"}
		if name == "edit_file" {
			args = map[string]any{"path": "run.sh", "old_string": "new", "new_string": "newer"}
		}
		mustCall(t, toolByName(t, ws, Limits{}, name), args)
		info, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != 0o751 {
			t.Errorf("after %s the mode is %v, want -rwxr-x--x", name, info.Mode().Perm())
		}
	}
	if got := readBack(t, ws, "run.sh"); got != "echo newer\n" {
		t.Errorf("run.sh holds %q", got)
	}
	if data, err := os.ReadFile(other); err != nil || string(data) != "echo old\n" {
		t.Errorf("the hard link's other name was written through: %q %v", data, err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(ws.Root(), ".*.tmp")); len(leftovers) != 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}

// TestWriteThroughSymlinkKeepsLink: a symlink inside the workspace to a
// file inside it is followed as before; the link stays a link and its
// target gets the content.
func TestWriteThroughSymlinkKeepsLink(t *testing.T) {
	ws := newTree(t, map[string]string{"real.txt": "old\n"})
	link := filepath.Join(ws.Root(), "link.txt")
	if err := os.Symlink("real.txt", link); err != nil {
		t.Fatal(err)
	}
	mustCall(t, toolByName(t, ws, Limits{}, "write_file"), map[string]any{"path": "link.txt", "content": "new\n"})
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link.txt is no longer a symlink: %v %v", info, err)
	}
	if got := readBack(t, ws, "real.txt"); got != "new\n" {
		t.Errorf("real.txt holds %q", got)
	}
}
