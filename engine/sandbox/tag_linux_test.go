package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// startNamed starts /bin/sh as a process named name (its comm), with
// env added, waiting on its input: closing the returned pipe lets it end.
func startNamed(t *testing.T, name string, env ...string) (*exec.Cmd, func()) {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	link := filepath.Join(t.TempDir(), name)
	if err := os.Symlink(sh, link); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(link, "-c", "read line")
	cmd.Env = append(os.Environ(), env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, func() { _ = in.Close() }
}

// reaped reports whether pid is gone for good: not a child of this
// process any more, running or not.
func reaped(pid int) bool {
	var status syscall.WaitStatus
	_, err := syscall.Wait4(pid, &status, syscall.WNOHANG, nil)
	return err == syscall.ECHILD
}

// Sweep ends and reaps what the commands of a child process that died
// left to baton: the supervisors of its runs, known by their name even
// once they have ended (a live one not named yet is known by its run's
// marker); a process of another tag, or none, is left alone.
func TestSweepReapsOnlyTheTagsSupervisors(t *testing.T) {
	tag := "cs" + strconv.Itoa(os.Getpid()) // unique on this machine, 13 letters at most
	TagRuns(tag)
	defer TagRuns("")
	if got := runTag(); got != tag+"." {
		t.Fatalf("runTag = %q", got)
	}
	named, cutNamed := startNamed(t, supervisorName(tag))
	other, cutOther := startNamed(t, supervisorName("cother"), markerVar+"=cother.1")
	defer func() { cutOther(); _ = other.Wait() }()
	// Their lifelines cut, the supervisors end by themselves, as a
	// real one does when the child process that started it has died.
	cutNamed()
	Sweep(tag)
	if !reaped(named.Process.Pid) {
		t.Errorf("the supervisor %d was not reaped", named.Process.Pid)
	}
	if reaped(other.Process.Pid) {
		t.Fatal("another tag's supervisor was reaped")
	}
	if commOf(other.Process.Pid) != supervisorName("cother") {
		t.Fatalf("comm = %q", commOf(other.Process.Pid))
	}
	marked := func(tag string) bool {
		return hasEnvMatching(other.Process.Pid, func(kv string) bool { return kv == markerVar+"="+tag+".1" })
	}
	if !marked("cother") || marked(tag) {
		t.Fatal("a live supervisor's run marker is misread")
	}
	Sweep("") // no tag: nothing
	if reaped(other.Process.Pid) {
		t.Fatal("a sweep without a tag reaped a process")
	}
}
