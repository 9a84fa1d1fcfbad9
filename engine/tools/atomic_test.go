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
)

// writerEnv, when set, makes the test binary a process that rewrites the
// file it names with write_file forever (see TestSIGKILLMidWrite).
const writerEnv = "BATON_TOOLS_TEST_WRITER"

// bigSize is the size of each version the writer process writes: large
// enough that a write takes a while, so a kill lands inside one.
const bigSize = 16 << 20

// rewriteForever alternates the whole content of path between two
// versions through the write_file tool; it says "ready" after the first.
func rewriteForever(path string) int {
	ws, err := NewWorkspace(filepath.Dir(path))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	tool, _ := NewSet(Base(ws, Limits{}, testBox(ws))...).Get("write_file")
	for i := 0; ; i++ {
		content := strings.Repeat(string(rune('a'+i%2)), bigSize-1) + "\n"
		args, _ := json.Marshal(map[string]string{"path": filepath.Base(path), "content": content})
		if _, err := tool.Run(context.Background(), args); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if i == 0 {
			fmt.Println("ready")
		}
	}
}

// wholeVersion reports whether data is one complete version: bigSize
// bytes of a single letter and a newline.
func wholeVersion(data []byte) bool {
	return len(data) == bigSize && data[bigSize-1] == '\n' &&
		bytes.Count(data[:bigSize-1], data[:1]) == bigSize-1
}

// TestSIGKILLMidWrite kills a real process that rewrites a 16 MB file
// without pause. Every read while it runs, and the file after the kill,
// is a whole version; and the original file, held open from before the
// first write, still holds its whole content: it was replaced by a rename,
// never truncated or written in place (os.WriteFile fails that at once).
func TestSIGKILLMidWrite(t *testing.T) {
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
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), writerEnv+"="+path)
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
