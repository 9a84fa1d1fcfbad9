package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// box is a test's sandbox: a workspace, a temp folder and a fake home
// with credentials in it, none of them the real ones.
type box struct {
	ws, tmp, home, outside string
	policy                 Policy
}

func newBox(t *testing.T) *box {
	t.Helper()
	if !Available() {
		t.Skipf("this kernel has no Landlock (%s); the sandbox cannot be tested here", Unavailable())
	}
	root := t.TempDir()
	b := &box{ws: filepath.Join(root, "ws"), tmp: filepath.Join(root, "tmp"), home: filepath.Join(root, "home"), outside: filepath.Join(root, "outside")}
	for _, d := range []string{b.ws, b.tmp, b.outside, filepath.Join(b.home, ".ssh"), filepath.Join(b.home, "notes")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(b.home, ".ssh", "id_ed25519"), "PRIVATE KEY")
	write(t, filepath.Join(b.home, "notes", "todo.txt"), "buy milk")
	b.policy = Settings{Env: map[string]string{"HOME": b.home, "TMPDIR": b.tmp}}.Policy(b.ws)
	return b
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// run runs script under p and returns its output and exit code.
func (b *box) run(t *testing.T, p Policy, script string) (string, int) {
	t.Helper()
	var out bytes.Buffer
	err := Run(context.Background(), p, script, b.ws, append(os.Environ(), "HOME="+b.home), &out)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("Run(%q): %v", script, err)
	}
	return out.String(), code
}

func TestWritesOnlyInsideWorkspaceAndTemp(t *testing.T) {
	b := newBox(t)
	out, code := b.run(t, b.policy, "echo a > in.txt && echo b > "+b.tmp+"/t.txt && echo c > /dev/null && echo ok")
	if code != 0 || !strings.Contains(out, "ok") {
		t.Fatalf("writes inside: exit %d, %q", code, out)
	}
	out, code = b.run(t, b.policy, "echo x > "+b.outside+"/escape.txt")
	if code == 0 || !strings.Contains(out, "Permission denied") {
		t.Fatalf("write outside: exit %d, %q; want the kernel to refuse", code, out)
	}
	if _, err := os.Stat(filepath.Join(b.outside, "escape.txt")); err == nil {
		t.Fatal("the file outside the workspace was written")
	}
	ro := b.policy
	ro.Mode = ReadOnly
	ro.Writable = []string{b.tmp}
	if out, code = b.run(t, ro, "echo x > ro.txt"); code == 0 {
		t.Fatalf("read-only mode wrote the workspace: %q", out)
	}
	// Without the sandbox the same write goes through: the refusal above
	// is the kernel's.
	off := b.policy
	off.Mode = Off
	if out, code = b.run(t, off, "echo x > "+b.outside+"/escape.txt"); code != 0 {
		t.Fatalf("unsandboxed write: exit %d, %q", code, out)
	}
}

func TestCredentialsUnreadable(t *testing.T) {
	b := newBox(t)
	out, code := b.run(t, b.policy, "cat "+b.home+"/notes/todo.txt")
	if code != 0 || out != "buy milk" {
		t.Fatalf("reading an ordinary home file: exit %d, %q", code, out)
	}
	for _, script := range []string{
		"cat " + b.home + "/.ssh/id_ed25519",
		"ls " + b.home + "/.ssh",
		"cd " + b.home + " && cat .ssh/id_ed25519",
		"ln -s " + b.home + "/.ssh link && cat link/id_ed25519",
		"ln " + b.home + "/.ssh/id_ed25519 hard && cat hard",
	} {
		out, _ := b.run(t, b.policy, script)
		if strings.Contains(out, "PRIVATE KEY") || !strings.Contains(out, "denied") && !strings.Contains(out, "cross-device") {
			t.Errorf("%s: %q; want the kernel to refuse", script, out)
		}
	}
}

func TestNetworkOffForSubagents(t *testing.T) {
	b := newBox(t)
	if ABI() < 4 {
		t.Skipf("Landlock ABI %d has no network rules", ABI())
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("the connect test uses bash's /dev/tcp")
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	// Ends when the listener is closed by the deferred Close.
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
			accepted <- struct{}{}
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	script := fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && echo connected", port)
	out, code := b.run(t, b.policy.WithNetwork(false), script)
	if code == 0 || strings.Contains(out, "connected") || !strings.Contains(out, "denied") {
		t.Fatalf("sub-agent connect: exit %d, %q; want the kernel to refuse", code, out)
	}
	out, code = b.run(t, b.policy, script)
	if code != 0 || !strings.Contains(out, "connected") {
		t.Fatalf("main agent connect: exit %d, %q", code, out)
	}
	<-accepted
}

// TestBatonMemoryUnreadable: Landlock refuses attach-mode access from
// inside the sandbox, so a command cannot read baton's memory (where the
// key lives). /proc/PID/environ is read-mode and stays readable, which is
// why baton re-executes itself without the key (cmd/baton tests that).
func TestBatonMemoryUnreadable(t *testing.T) {
	b := newBox(t)
	script := fmt.Sprintf("head -c1 /proc/%d/mem; head -c1 /proc/$PPID/mem; grep -c %s /proc/$PPID/environ", os.Getpid(), markerVar)
	out, _ := b.run(t, b.policy, script)
	if strings.Count(out, "Permission denied") < 2 {
		t.Fatalf("reading baton's memory: %q; want the kernel to refuse", out)
	}
	off := b.policy
	off.Mode = Off
	if out, _ = b.run(t, off, fmt.Sprintf("head -c1 /proc/%d/mem", os.Getpid())); strings.Contains(out, "Permission denied") {
		t.Fatalf("unsandboxed, the refusal should not happen (so the one above is Landlock's): %q", out)
	}
}

func TestEveryDescendantKilled(t *testing.T) {
	b := newBox(t)
	for _, p := range []Policy{b.policy, {Mode: Off}} {
		script := "setsid sleep 1000 & echo $!; (setsid sh -c 'echo $$; exec sleep 1001' &) ; sleep 0.01; nohup sleep 1002 >/dev/null 2>&1 & echo $!"
		out, code := b.run(t, p, script)
		if code != 0 {
			t.Fatalf("exit %d: %q", code, out)
		}
		pids := strings.Fields(out)
		if len(pids) != 3 {
			t.Fatalf("want three pids, got %q", out)
		}
		for _, s := range pids {
			pid, _ := strconv.Atoi(s)
			if err := syscall.Kill(pid, 0); err != syscall.ESRCH {
				t.Errorf("mode %s: process %d outlived the call (kill 0: %v)", p.Mode, pid, err)
			}
		}
	}
}

func TestCancelKillsTheTree(t *testing.T) {
	b := newBox(t)
	pidFile := filepath.Join(b.tmp, "pid")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, b.policy, "setsid sleep 1000 & echo $! > "+pidFile+".tmp && mv "+pidFile+".tmp "+pidFile+"; wait", b.ws, os.Environ(), &bytes.Buffer{})
	}()
	var pid int
	for pid == 0 {
		if data, err := os.ReadFile(pidFile); err == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		}
		select {
		case err := <-done:
			t.Fatalf("Run ended before cancel: %v", err)
		default:
		}
	}
	cancel()
	<-done
	if err := syscall.Kill(pid, 0); err != syscall.ESRCH {
		t.Fatalf("process %d outlived the cancelled call (kill 0: %v)", pid, err)
	}
}

func TestNoTerminal(t *testing.T) {
	b := newBox(t)
	for _, p := range []Policy{b.policy, {Mode: Off}} {
		out, code := b.run(t, p, "echo boom > /dev/tty")
		if code == 0 {
			t.Errorf("mode %s: writing /dev/tty succeeded: %q", p.Mode, out)
		}
		out, code = b.run(t, p, "read -r line; echo \"[$line]\"; test -t 0 || echo notty")
		if code != 0 || !strings.Contains(out, "[]") || !strings.Contains(out, "notty") {
			t.Errorf("mode %s: stdin is not empty /dev/null: exit %d, %q", p.Mode, code, out)
		}
	}
}
