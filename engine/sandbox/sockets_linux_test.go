package sandbox

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// serveUnix listens on a Unix socket at path ("@name" for an abstract
// one) and answers every connection with word, counting them.
func serveUnix(t *testing.T, path, word string) *atomic.Int32 {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	var hits atomic.Int32
	// Ends when the listener is closed at cleanup.
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			hits.Add(1)
			_, _ = c.Write([]byte(word))
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return &hits
}

// client is the command line that runs probeClient inside a command.
func client(t *testing.T, args ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe + " " + probeClientArg + " " + strings.Join(args, " ")
}

// runAs runs script under p, isolated in namespaces or not.
func (b *box) runAs(t *testing.T, p Policy, isolate bool, script string) string {
	t.Helper()
	var out bytes.Buffer
	err := run(context.Background(), p, script, b.ws, append(os.Environ(), "HOME="+b.home), &out, isolate)
	if _, ok := err.(*ExitError); err != nil && !ok {
		t.Fatalf("run %q: %v", script, err)
	}
	return out.String()
}

// ways are the two ways commands run: in namespaces of their own (the
// supervisor covers sockets) and, where the kernel refuses those, without
// (the seccomp filter refuses Unix sockets).
func ways(t *testing.T) []bool {
	var out []bool
	if Isolated() {
		out = append(out, true)
	} else {
		t.Logf("commands cannot be isolated here (%s): only the filter is tested", IsolationProblem())
	}
	if filterAvailable() {
		out = append(out, false)
	} else {
		t.Logf("no seccomp socket filter for this architecture: only isolated commands are tested")
	}
	if len(out) == 0 {
		t.Skip("neither namespaces nor the socket filter here: Unix sockets and UDP stay reachable, and the cards say so")
	}
	return out
}

// TestUnixSocketsOutsideTheWorkspaceUnreachable: a server listening on a
// socket outside the workspace (the person's tmux, ssh-agent, docker)
// answers an unsandboxed client, so the attack is real; a sandboxed
// command, the main agent's or a network-off sub-agent's, reaches
// neither it nor an abstract socket. One the person lists in
// allow_sockets is reachable, and so is one in the workspace, where
// commands can be told apart from the person's daemons (isolated only:
// the filter refuses every Unix socket).
func TestUnixSocketsOutsideTheWorkspaceUnreachable(t *testing.T) {
	b := newBox(t)
	outside := filepath.Join(b.outside, "daemon.sock")
	allowed := filepath.Join(b.outside, "allowed.sock")
	inside := filepath.Join(b.ws, "dev.sock")
	abstract := "@baton-test-" + filepath.Base(b.ws) + filepath.Base(filepath.Dir(b.ws))
	hits := serveUnix(t, outside, "DAEMON")
	serveUnix(t, allowed, "ALLOWED")
	serveUnix(t, inside, "INSIDE")
	abstractHits := serveUnix(t, abstract, "ABSTRACT")

	off := b.policy
	off.Mode = Off
	if out := b.runAs(t, off, false, client(t, "unix", outside)); !strings.Contains(out, "ok: DAEMON") {
		t.Fatalf("unsandboxed, the daemon should answer: %q", out)
	}
	before := hits.Load()

	p := b.policy
	p.AllowSockets = []string{allowed}
	for _, isolate := range ways(t) {
		for _, pol := range []Policy{p, p.WithNetwork(false)} {
			name := map[bool]string{true: "isolated", false: "filtered"}[isolate] + map[bool]string{true: " main agent", false: " network off"}[pol.Network]
			if out := b.runAs(t, pol, isolate, client(t, "unix", outside)); !strings.Contains(out, "refused") {
				t.Errorf("%s: the daemon's socket outside the workspace: %q", name, out)
			}
			if out := b.runAs(t, pol, isolate, client(t, "unix", abstract)); ABI() >= 6 && !strings.Contains(out, "refused") {
				t.Errorf("%s: an abstract socket: %q", name, out)
			}
			wantReach := isolate || ABI() >= 9
			for sock, word := range map[string]string{allowed: "ALLOWED", inside: "INSIDE"} {
				out := b.runAs(t, pol, isolate, client(t, "unix", sock))
				if wantReach != strings.Contains(out, "ok: "+word) {
					t.Errorf("%s: %s: %q (reachable: want %v)", name, sock, out, wantReach)
				}
			}
		}
	}
	if hits.Load() != before || abstractHits.Load() != 0 {
		t.Fatalf("the daemon was reached from a sandboxed command: %d, abstract %d", hits.Load()-before, abstractHits.Load())
	}
}

// TestRenamedSocketUnreachable: a server that binds a temporary name
// and renames the socket into place (and one that binds a second socket
// beside it later renamed) leaves /proc/net/unix showing a name that no
// longer exists; the socket is still the person's and still covered.
func TestRenamedSocketUnreachable(t *testing.T) {
	b := newBox(t)
	bound := filepath.Join(b.outside, "daemon.sock.tmp")
	final := filepath.Join(b.outside, "daemon.sock")
	hits := serveUnix(t, bound, "DAEMON")
	must(t, os.Rename(bound, final))

	off := b.policy
	off.Mode = Off
	if out := b.runAs(t, off, false, client(t, "unix", final)); !strings.Contains(out, "ok: DAEMON") {
		t.Fatalf("unsandboxed, the renamed socket should answer: %q", out)
	}
	before := hits.Load()
	for _, isolate := range ways(t) {
		for _, pol := range []Policy{b.policy, b.policy.WithNetwork(false)} {
			if out := b.runAs(t, pol, isolate, client(t, "unix", final)); !strings.Contains(out, "refused") {
				t.Errorf("isolated %v, network %v: the renamed socket: %q", isolate, pol.Network, out)
			}
		}
	}
	if hits.Load() != before {
		t.Fatalf("the renamed socket was reached from a sandboxed command %d times", hits.Load()-before)
	}
}

// TestTmuxServerUnreachable is the attack itself: the person's tmux
// server runs whatever its socket is told, outside the sandbox. A
// sandboxed command that finds the socket asks it to write a file
// outside the workspace; without the sandbox the same request goes
// through.
func TestTmuxServerUnreachable(t *testing.T) {
	b := newBox(t)
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	sock := filepath.Join(b.outside, "tmux-1000", "default")
	must(t, os.MkdirAll(filepath.Dir(sock), 0o700))
	if out, err := exec.Command(tmux, "-S", sock, "-f", "/dev/null", "new-session", "-d", "-s", "person", "sleep 600").CombinedOutput(); err != nil {
		t.Skipf("cannot start a tmux server: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command(tmux, "-S", sock, "kill-server").Run() })
	pwned := filepath.Join(b.outside, "pwned")
	attack := tmux + " -S " + sock + " run-shell 'touch " + pwned + "'"

	for _, isolate := range ways(t) {
		for _, p := range []Policy{b.policy, b.policy.WithNetwork(false)} {
			out := b.runAs(t, p, isolate, attack)
			if _, err := os.Stat(pwned); err == nil {
				t.Fatalf("isolated %v, network %v: the tmux server ran the command's request: %q", isolate, p.Network, out)
			}
		}
	}
	off := b.policy
	off.Mode = Off
	b.runAs(t, off, false, attack)
	if _, err := os.Stat(pwned); err != nil {
		t.Fatalf("unsandboxed, the request should go through (else this test proves nothing): %v", err)
	}
}

// TestNetworkOffStopsUDP: a datagram from a network-off command to a
// listener on this machine never arrives, in a network namespace of its
// own or under the filter. The listener then gets the test's own
// datagram first, which shows nothing came before it.
func TestNetworkOffStopsUDP(t *testing.T) {
	b := newBox(t)
	if note := networkNote(); note != "" {
		t.Skipf("this kernel keeps network off only so far (%s), and the cards say so", note)
	}
	conn, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	addr := conn.LocalAddr().String()
	off := b.policy
	off.Mode = Off
	if out := b.runAs(t, off, false, client(t, "udp", addr)); !strings.Contains(out, "ok: sent") {
		t.Fatalf("unsandboxed send: %q", out)
	}
	buf := make([]byte, 64)
	if n, _, err := conn.ReadFrom(buf); err != nil || string(buf[:n]) != "from the sandbox" {
		t.Fatalf("the unsandboxed datagram did not arrive: %v %q", err, buf[:n])
	}
	for _, isolate := range ways(t) {
		out := b.runAs(t, b.policy.WithNetwork(false), isolate, client(t, "udp", addr)+"; "+client(t, "tcp", addr))
		if strings.Contains(out, "ok:") {
			t.Errorf("isolated %v: a network-off command reached the network: %q", isolate, out)
		}
		sentinel, err := net.Dial("udp4", addr)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = sentinel.Write([]byte("sentinel"))
		sentinel.Close()
		if n, _, err := conn.ReadFrom(buf); err != nil || string(buf[:n]) != "sentinel" {
			t.Fatalf("isolated %v: the first datagram after the command was %q (%v), not the test's own", isolate, buf[:n], err)
		}
	}
}

// TestFilterKeepsSocketPairs: the filter refuses Unix sockets but not a
// connected stream pair (which reaches nothing outside the command and
// which shells and runtimes use), refuses a datagram pair (which could
// be pointed at any socket) and io_uring (which could open sockets
// behind it).
func TestFilterKeepsSocketPairs(t *testing.T) {
	b := newBox(t)
	if !filterAvailable() {
		t.Skip("no socket filter for this architecture")
	}
	out := b.runAs(t, b.policy.WithNetwork(false), false,
		client(t, "socketpair", "stream")+"; "+client(t, "socketpair", "dgram")+"; "+client(t, "io_uring"))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || lines[0] != "ok: pair" || !strings.Contains(lines[1], "refused: permission denied") ||
		!strings.Contains(lines[2], "refused: function not implemented") {
		t.Fatalf("stream pair, datagram pair, io_uring under the filter: %q", out)
	}
}
