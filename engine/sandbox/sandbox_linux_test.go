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

// run runs script under p, with extra in its environment, and returns
// its output and exit code.
func (b *box) run(t *testing.T, p Policy, script string, extra ...string) (string, int) {
	t.Helper()
	var out bytes.Buffer
	err := Run(context.Background(), p, script, b.ws, append(append(os.Environ(), "HOME="+b.home), extra...), &out)
	code := 0
	if ee, ok := err.(*ExitError); ok {
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
	write(t, filepath.Join(b.home, ".gitconfig"), "[user]\n\tname = me\n")
	out, code := b.run(t, b.policy, "cat "+b.home+"/.gitconfig")
	if code != 0 || !strings.Contains(out, "name = me") {
		t.Fatalf("reading the git config builds need: exit %d, %q", code, out)
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

// TestOtherToolsCredentialsUnreadable plants the credential stores of
// the tools people have in a fake home and reads each from a sandboxed
// command: other agents' logins and transcripts, shell history, registry
// auth, age keys, Hugging Face and Pulumi tokens, and a personal file no
// list names. Each is readable without the sandbox (the attack is real)
// and refused with it, while what builds read in the same home (a
// toolchain, the git config, the cargo config, a pip cache) still is.
func TestOtherToolsCredentialsUnreadable(t *testing.T) {
	b := newBox(t)
	runtime := filepath.Join(filepath.Dir(b.home), "run")
	secrets := map[string]string{
		".codex/auth.json": "", ".claude/.credentials.json": "", ".claude.json": "",
		".local/share/opencode/auth.json": "", ".local/share/fish/fish_history": "", ".docker/config.json": "",
		".config/containers/auth.json": "", ".config/sops/age/keys.txt": "", ".cache/huggingface/token": "",
		".huggingface/token": "", ".pulumi/credentials.json": "", ".cargo/credentials.toml": "",
		"notes/todo.txt": "", "Documents/taxes.txt": "", ".some-new-tool/token": "",
		runtime + "/containers/auth.json": "",
	}
	readable := []string{".gitconfig", ".cargo/config.toml", "go/pkg/mod/example.com/m@v1/m.go", ".cache/pip/wheel.txt", ".local/bin/tool"}
	var cats []string
	for name := range secrets {
		path := name
		if !filepath.IsAbs(path) {
			path = filepath.Join(b.home, name)
		}
		secrets[name] = path
		must(t, os.MkdirAll(filepath.Dir(path), 0o700))
		write(t, path, "SECRET "+name)
		cats = append(cats, "cat "+path)
	}
	var reads []string
	for _, name := range readable {
		path := filepath.Join(b.home, name)
		must(t, os.MkdirAll(filepath.Dir(path), 0o755))
		write(t, path, "BUILD "+name+"\n")
		reads = append(reads, "cat "+path)
	}
	p := Settings{Env: map[string]string{"HOME": b.home, "TMPDIR": b.tmp, "XDG_RUNTIME_DIR": runtime}}.Policy(b.ws)
	off := p
	off.Mode = Off
	script := strings.Join(cats, "; ")
	if out, _ := b.run(t, off, script); strings.Count(out, "SECRET") != len(secrets) {
		t.Fatalf("unsandboxed, every planted secret should be readable: %q", out)
	}
	out, _ := b.run(t, p, script+"; cat "+b.home+"/.*/* "+b.home+"/*/* 2>/dev/null")
	if strings.Contains(out, "SECRET") {
		t.Errorf("a sandboxed command read a credential:\n%s", out)
	}
	if got := strings.Count(out, "Permission denied"); got != len(secrets) {
		t.Errorf("%d of %d reads refused by the kernel:\n%s", got, len(secrets), out)
	}
	out, code := b.run(t, p, strings.Join(reads, " && "))
	if code != 0 || strings.Count(out, "BUILD") != len(readable) {
		t.Errorf("what builds read in the home folder: exit %d\n%s", code, out)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
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

// TestBatonMemoryUnreadable: a command cannot read baton's memory,
// where the key lives, nor its supervisor's: isolated, baton is not even
// in the command's /proc, and Landlock refuses attach-mode access to the
// supervisor (and to baton, where processes are visible).
func TestBatonMemoryUnreadable(t *testing.T) {
	b := newBox(t)
	script := fmt.Sprintf("head -c1 /proc/%d/mem; head -c1 /proc/$PPID/mem; grep -c %s /proc/$PPID/environ", os.Getpid(), markerVar)
	out, _ := b.run(t, b.policy, script)
	want := 2
	if Isolated() {
		want = 1
		if !strings.Contains(out, "No such file") {
			t.Errorf("baton is visible in an isolated command's /proc: %q", out)
		}
	}
	if strings.Count(out, "Permission denied") < want {
		t.Fatalf("reading baton's and the supervisor's memory: %q; want the kernel to refuse", out)
	}
	off := b.policy
	off.Mode = Off
	if out, _ = b.run(t, off, fmt.Sprintf("head -c1 /proc/%d/mem", os.Getpid())); strings.Contains(out, "Permission denied") {
		t.Fatalf("unsandboxed, the refusal should not happen (so the one above is Landlock's): %q", out)
	}
}

// tagged lists the live processes whose environment holds kv, seen from
// the test (outside any namespace a command ran in).
func tagged(kv string) []int {
	var out []int
	for pid := range parents() {
		if hasEnv(pid, kv) {
			out = append(out, pid)
		}
	}
	return out
}

// newTag is an environment entry that marks one test's processes.
func newTag(t *testing.T) string {
	return "BATON_TEST_TAG=" + strconv.FormatInt(int64(os.Getpid()), 10) + "-" + strings.ReplaceAll(t.Name(), "/", "-")
}

func TestEveryDescendantKilled(t *testing.T) {
	b := newBox(t)
	for _, p := range []Policy{b.policy, {Mode: Off}} {
		tag := newTag(t) + "-" + string(p.Mode)
		// Three ways to outlive a shell: a new session, a double fork
		// into a new session, nohup. Each must be alive when it ends.
		script := "setsid sleep 1000 & a=$!; (setsid sh -c 'echo $$ > double.pid; exec sleep 1001' &); " +
			"nohup sleep 1002 >/dev/null 2>&1 & c=$!; until [ -s double.pid ]; do :; done; " +
			"for p in $a $(cat double.pid) $c; do kill -0 $p && echo alive; done"
		out, code := b.run(t, p, script, tag)
		if code != 0 || strings.Count(out, "alive") != 3 {
			t.Fatalf("mode %s: exit %d: %q", p.Mode, code, out)
		}
		if left := tagged(tag); len(left) > 0 {
			t.Errorf("mode %s: processes %v outlived the call", p.Mode, left)
		}
		_ = os.Remove(filepath.Join(b.ws, "double.pid"))
	}
}

func TestCancelKillsTheTree(t *testing.T) {
	b := newBox(t)
	tag := newTag(t)
	pidFile := filepath.Join(b.tmp, "pid")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, b.policy, "setsid sleep 1000 & echo $! > "+pidFile+".tmp && mv "+pidFile+".tmp "+pidFile+"; wait", b.ws, append(os.Environ(), tag), &bytes.Buffer{})
	}()
	for {
		if _, err := os.Stat(pidFile); err == nil {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("Run ended before cancel: %v", err)
		default:
		}
	}
	if len(tagged(tag)) == 0 {
		t.Fatalf("the command's processes are not visible from outside: %v", tagged(tag))
	}
	cancel()
	<-done
	if left := tagged(tag); len(left) > 0 {
		t.Fatalf("processes %v outlived the cancelled call", left)
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

// TestRootCommandsLoseCapabilities: started by root, a command would be
// root with every capability. Raising its own priority (CAP_SYS_NICE)
// stands for what they allow past Landlock (a kernel module, the host's
// name and network, opening files by handle): it works unsandboxed and
// fails sandboxed, and the command's capabilities hold none of those.
func TestRootCommandsLoseCapabilities(t *testing.T) {
	b := newBox(t)
	if os.Geteuid() != 0 {
		t.Skip("only a command root starts has capabilities to lose")
	}
	renice := "renice -n -5 -p $$ >/dev/null && echo raised"
	off := b.policy
	off.Mode = Off
	if out, _ := b.run(t, off, renice); !strings.Contains(out, "raised") {
		t.Skipf("root cannot raise a priority here even unsandboxed: %q", out)
	}
	if out, _ := b.run(t, b.policy, renice); strings.Contains(out, "raised") {
		t.Fatalf("a sandboxed command used CAP_SYS_NICE: %q", out)
	}
	out, _ := b.run(t, b.policy, "grep -E '^Cap(Eff|Bnd)' /proc/self/status")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		mask, err := strconv.ParseUint(f[len(f)-1], 16, 64)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		for _, c := range []uint{2, 12, 16, 19, 21, 23, 25} { // DAC_READ_SEARCH NET_ADMIN SYS_MODULE SYS_PTRACE SYS_ADMIN SYS_NICE SYS_TIME
			if mask&(1<<c) != 0 {
				t.Errorf("%s: capability %d kept", f[0], c)
			}
		}
	}
}
