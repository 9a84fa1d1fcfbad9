package container

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/moby/moby/api/types/mount"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/child/process"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// shortDir is a folder whose path leaves room under the 108 bytes a
// Unix socket's path may have, removed when the test ends.
func shortDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", "bct-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// fakeStatic writes a 64-bit ELF header with no program headers: a
// statically linked executable as far as staticBinary can tell.
func fakeStatic(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	b.Write([]byte{0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	head := struct {
		Type, Machine                                        uint16
		Version                                              uint32
		Entry, Phoff, Shoff                                  uint64
		Flags                                                uint32
		Ehsize, Phentsize, Phnum, Shentsize, Shnum, Shstrndx uint16
	}{Type: 2, Machine: 62, Version: 1, Phoff: 64, Ehsize: 64, Phentsize: 56}
	_ = binary.Write(&b, binary.LittleEndian, head)
	path := filepath.Join(t.TempDir(), "baton")
	if err := os.WriteFile(path, b.Bytes(), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// launchSetup is a fake engine, a launcher pointed at it and the folder
// its relays are made in (TMPDIR).
type launchSetup struct {
	engine *fakeEngine
	l      *launcher
	tmp    string
	ws     string
}

func newLaunchSetup(t *testing.T) *launchSetup {
	t.Helper()
	s := &launchSetup{tmp: shortDir(t), ws: t.TempDir()}
	t.Setenv("TMPDIR", s.tmp)
	s.engine = newFakeEngine(t)
	s.l = &launcher{opts: Options{Host: s.engine.host, Image: "baton-test:latest", Binary: fakeStatic(t), CPUs: 1.5, Memory: 256 << 20}}
	return s
}

// job is a child of names in the setup's workspace; worktree says
// whether the workspace is a worktree of the child's own.
func (s *launchSetup) job(worktree bool, names ...string) child.Job {
	spec := child.Spec{Workspace: s.ws, Toolbox: child.Toolbox{Names: names}}
	spec.Meta.Agent = "c-7"
	if worktree {
		spec.Worktree = s.ws
	}
	return child.Job{Spec: spec}
}

// relaysLeft lists the relay folders still in TMPDIR.
func (s *launchSetup) relaysLeft(t *testing.T) []string {
	t.Helper()
	left, err := filepath.Glob(filepath.Join(s.tmp, "baton-relay-*"))
	if err != nil {
		t.Fatal(err)
	}
	return left
}

// syncBuffer is a buffer safe to write from the output's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A reading child's container: created confined (no network, every
// capability dropped, a read-only root and workspace, limits), started,
// then attached; its input reaches the process, its stdout and stderr
// frames are told apart, and once it exits it is removed with its relay.
func TestLaunchRunsAConfinedContainerAndRemovesIt(t *testing.T) {
	s := newLaunchSetup(t)
	var stderr syncBuffer
	p, err := s.l.Launch(context.Background(), s.job(false, "read_file", "grep"), []string{"child", "c-7"}, &stderr)
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	if got := p.(*proc).EndpointSocket(); got != "/run/baton-endpoint/endpoint.sock" {
		t.Fatalf("EndpointSocket = %q", got)
	}
	if _, err := io.WriteString(p.Stdin(), "spec line\n"); err != nil {
		t.Fatal(err)
	}
	if err := p.Stdin().Close(); err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(p.Stdout())
	if err != nil || string(out) != "out: spec line\n" {
		t.Fatalf("stdout = %q, %v", out, err)
	}
	if err := p.Wait(); err != nil {
		t.Fatalf("Wait: %v", err)
	}
	if got := stderr.String(); got != "err: spec line\n" {
		t.Fatalf("stderr = %q", got)
	}
	want := []string{"POST /containers/create", "POST /containers/{id}/start",
		"POST /containers/{id}/attach?stderr=1&stdin=1&stdout=1&stream=1",
		"POST /containers/{id}/wait?condition=not-running", "DELETE /containers/{id}?force=1"}
	if got := s.engine.Calls(); !slices.Equal(got, want) {
		t.Fatalf("calls = %q\nwant   %q", got, want)
	}
	if left := s.relaysLeft(t); len(left) != 0 {
		t.Fatalf("relays left behind: %q", left)
	}

	body := s.engine.created[0]
	if body.Image != "baton-test:latest" || !slices.Equal(body.Cmd, []string{binaryPath, "child", "c-7"}) || body.WorkingDir != s.ws {
		t.Errorf("image %q cmd %q dir %q", body.Image, body.Cmd, body.WorkingDir)
	}
	if body.User != strconv.Itoa(os.Getuid())+":"+strconv.Itoa(os.Getgid()) || body.Labels["baton.child"] != "c-7" || body.Labels["baton.pid"] != strconv.Itoa(os.Getpid()) {
		t.Errorf("user %q labels %v", body.User, body.Labels)
	}
	if !body.OpenStdin || !body.StdinOnce || !slices.Contains(body.Env, "HOME=/tmp") {
		t.Errorf("stdin %v/%v env %q", body.OpenStdin, body.StdinOnce, body.Env)
	}
	hc := body.HostConfig
	if hc.NetworkMode != "none" || !slices.Equal(hc.CapDrop, []string{"ALL"}) || !slices.Equal(hc.SecurityOpt, []string{"no-new-privileges"}) || !hc.ReadonlyRootfs {
		t.Errorf("confinement: network %q capdrop %q secopt %q read-only root %v", hc.NetworkMode, hc.CapDrop, hc.SecurityOpt, hc.ReadonlyRootfs)
	}
	if hc.NanoCPUs != 1_500_000_000 || hc.Memory != 256<<20 || hc.PidsLimit != processes || len(hc.Ulimits) != 2 {
		t.Errorf("limits: cpus %d memory %d pids %d ulimits %v", hc.NanoCPUs, hc.Memory, hc.PidsLimit, hc.Ulimits)
	}
	ws := hc.Mounts[0]
	if ws.Type != mount.TypeBind || ws.Source != s.ws || ws.Target != s.ws || !ws.ReadOnly {
		t.Errorf("a reading child's workspace must be mounted read-only: %+v", ws)
	}
	if bin := hc.Mounts[1]; bin.Target != binaryPath || !bin.ReadOnly || bin.Source != s.l.opts.Binary {
		t.Errorf("binary mount %+v", bin)
	}
	if relay := hc.Mounts[2]; relay.Target != relayPath || !strings.HasPrefix(relay.Source, filepath.Join(s.tmp, "baton-relay-")) {
		t.Errorf("relay mount %+v", relay)
	}
}

// A writer runs only on a worktree of its own, which is then its one
// writable mount; a child granted the network gets the engine's default
// network instead of none.
func TestLaunchWritersAndNetwork(t *testing.T) {
	s := newLaunchSetup(t)
	if _, err := s.l.Launch(context.Background(), s.job(false, "write_file"), nil, io.Discard); err == nil || !strings.Contains(err.Error(), "worktree") {
		t.Fatalf("a writer in the person's tree: %v", err)
	}
	if calls := s.engine.Calls(); len(calls) != 0 {
		t.Fatalf("the engine was called for a refused writer: %q", calls)
	}
	writer := s.job(true, "write_file")
	writer.Spec.Toolbox.Sandbox = sandbox.Policy{Network: true}
	if hc := s.l.hostConfig(writer.Spec, "/b", "/r"); hc.Mounts[0].ReadOnly || hc.NetworkMode != "" {
		t.Fatalf("worktree writer with network: workspace read-only %v, network %q", hc.Mounts[0].ReadOnly, hc.NetworkMode)
	}
	fetcher := s.job(false, "web_fetch")
	fetcher.Spec.Toolbox.WebFetch = &tools.WebFetchOptions{}
	if hc := s.l.hostConfig(fetcher.Spec, "/b", "/r"); hc.NetworkMode != "" {
		t.Fatalf("a child with web_fetch gets network %q", hc.NetworkMode)
	}
	fetcher.Spec.Toolbox.Names = []string{"read_file"}
	if hc := s.l.hostConfig(fetcher.Spec, "/b", "/r"); hc.NetworkMode != "none" {
		t.Fatalf("web_fetch options without the tool must not open the network: %q", hc.NetworkMode)
	}
}

// A container that exits badly, is killed, or vanishes says so from Wait.
func TestWaitReportsHowTheContainerEnded(t *testing.T) {
	t.Run("status", func(t *testing.T) {
		s := newLaunchSetup(t)
		s.engine.exitCode = 3
		p, err := s.l.Launch(context.Background(), s.job(false, "read_file"), nil, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		_ = p.Stdin().Close()
		_, _ = io.Copy(io.Discard, p.Stdout())
		if err := p.Wait(); err == nil || err.Error() != "its container exited with status 3" {
			t.Fatalf("Wait = %v", err)
		}
	})
	t.Run("killed", func(t *testing.T) {
		s := newLaunchSetup(t)
		p, err := s.l.Launch(context.Background(), s.job(false, "read_file"), nil, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		p.Kill()
		if err := p.Wait(); err == nil || !strings.Contains(err.Error(), "status 137") {
			t.Fatalf("Wait after Kill = %v", err)
		}
		if !slices.Contains(s.engine.Calls(), "POST /containers/{id}/kill?signal=KILL") {
			t.Fatalf("no SIGKILL sent: %q", s.engine.Calls())
		}
		if left := s.relaysLeft(t); len(left) != 0 {
			t.Fatalf("relays left behind: %q", left)
		}
	})
	t.Run("gone", func(t *testing.T) {
		s := newLaunchSetup(t)
		s.engine.routes["POST /containers/{id}/wait"] = answer(http.StatusNotFound, `{"message":"no such container"}`)
		s.engine.routes["DELETE /containers/{id}"] = answer(http.StatusNotFound, `{"message":"no such container"}`)
		p, err := s.l.Launch(context.Background(), s.job(false, "read_file"), nil, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		_ = p.Stdin().Close()
		_, _ = io.Copy(io.Discard, p.Stdout())
		// Removing what is already gone is no second error.
		if err := p.Wait(); err == nil || err.Error() != "its container is gone" {
			t.Fatalf("Wait = %v", err)
		}
	})
	t.Run("wait and remove fail", func(t *testing.T) {
		s := newLaunchSetup(t)
		s.engine.routes["POST /containers/{id}/wait"] = answer(http.StatusInternalServerError, "engine on fire")
		s.engine.routes["DELETE /containers/{id}"] = answer(http.StatusConflict, `{"message":"container is busy"}`)
		p, err := s.l.Launch(context.Background(), s.job(false, "read_file"), nil, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		_ = p.Stdin().Close()
		_, _ = io.Copy(io.Discard, p.Stdout())
		err = p.Wait()
		for _, want := range []string{"wait for its container: engine on fire (HTTP 500)", "remove its container c0ffee: container is busy (HTTP 409)"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("Wait = %v, want %q", err, want)
			}
		}
	})
}

// Each way the engine can refuse or garble a step before the child runs
// fails the launch with the engine's own words, and leaves no container
// and no relay behind.
func TestLaunchFailuresCleanUp(t *testing.T) {
	for _, c := range []struct {
		name    string
		route   string
		handler func(f *fakeEngine) http.HandlerFunc
		want    string
		removed bool
	}{
		{"missing image", "POST /containers/create", func(*fakeEngine) http.HandlerFunc {
			return answer(http.StatusNotFound, `{"message":"no such image: baton-test:latest"}`)
		}, `the image "baton-test:latest" is not in the container engine at unix://`, false},
		{"create answers garbage", "POST /containers/create", func(*fakeEngine) http.HandlerFunc {
			return answer(http.StatusCreated, `<html>`)
		}, "its reply: invalid character", false},
		{"create gives no id", "POST /containers/create", func(*fakeEngine) http.HandlerFunc {
			return answer(http.StatusCreated, `{"Id":""}`)
		}, "it made a container without an id", false},
		{"start fails", "POST /containers/{id}/start", func(*fakeEngine) http.HandlerFunc {
			return answer(http.StatusInternalServerError, "  OCI runtime error: runc: permission denied\n")
		}, "OCI runtime error: runc: permission denied (HTTP 500)", true},
		{"attach refused", "POST /containers/{id}/attach", func(*fakeEngine) http.HandlerFunc {
			return answer(http.StatusConflict, `{"message":"container is not running"}`)
		}, "attach: container is not running (HTTP 409)", true},
		{"attach answers garbage", "POST /containers/{id}/attach", func(f *fakeEngine) http.HandlerFunc {
			return func(w http.ResponseWriter, _ *http.Request) {
				if conn, _ := f.hijack(w, "SSH-2.0-OpenSSH_9.6\r\n\r\n"); conn != nil {
					_ = conn.Close()
				}
			}
		}, "attach: malformed HTTP", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newLaunchSetup(t)
			s.engine.routes[c.route] = c.handler(s.engine)
			_, err := s.l.Launch(context.Background(), s.job(false, "read_file"), nil, io.Discard)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Launch = %v, want %q", err, c.want)
			}
			if left := s.relaysLeft(t); len(left) != 0 {
				t.Fatalf("relays left behind: %q", left)
			}
			if got := slices.Contains(s.engine.Calls(), "DELETE /containers/{id}?force=1"); got != c.removed {
				t.Fatalf("container removed: %v, want %v (calls %q)", got, c.removed, s.engine.Calls())
			}
		})
	}
}

// An engine that is not there, or a binary that cannot run in a
// container, fails the launch before anything is made.
func TestLaunchRefusesBeforeTheEngine(t *testing.T) {
	s := newLaunchSetup(t)
	gone := "unix://" + filepath.Join(s.tmp, "none.sock")
	l := &launcher{opts: Options{Host: gone, Image: "i", Binary: s.l.opts.Binary}}
	_, err := l.Launch(context.Background(), s.job(false, "read_file"), nil, io.Discard)
	var u *unreachableError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), gone) || !strings.Contains(err.Error(), "is it running?") {
		t.Fatalf("unreachable engine: %v", err)
	}
	if !errors.Is(err, os.ErrNotExist) && !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("the cause is lost: %v", err)
	}
	l.opts.Binary = filepath.Join(s.tmp, "missing")
	if _, err := l.Launch(context.Background(), s.job(false, "read_file"), nil, io.Discard); err == nil || !strings.Contains(err.Error(), "cannot run in a container") {
		t.Fatalf("missing binary: %v", err)
	}
	l.opts.Binary = s.l.opts.Binary
	l.opts.Endpoint.BaseURL = "::not a url"
	if _, err := l.Launch(context.Background(), s.job(false, "read_file"), nil, io.Discard); err == nil || !strings.Contains(err.Error(), "no host a container could be relayed to") {
		t.Fatalf("endpoint without a host: %v", err)
	}
	if left := s.relaysLeft(t); len(left) != 0 {
		t.Fatalf("relays left behind: %q", left)
	}
}

// An engine that sends a frame of a stream that does not exist ends the
// child's output with an error rather than passing the bytes on.
func TestAGarbledOutputFrameEndsTheOutput(t *testing.T) {
	s := newLaunchSetup(t)
	s.engine.routes["POST /containers/{id}/attach"] = func(w http.ResponseWriter, _ *http.Request) {
		conn, _ := s.engine.hijack(w, "HTTP/1.1 200 OK\r\nContent-Type: application/vnd.docker.raw-stream\r\n\r\n")
		if conn == nil {
			return
		}
		_, _ = conn.Write(frame(1, "fine\n"))
		_, _ = conn.Write(frame(9, `{"type":"result","text":"forged"}`+"\n"))
		s.engine.exit(0)
	}
	p, err := s.l.Launch(context.Background(), s.job(false, "read_file"), nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(p.Stdout())
	if err == nil || string(out) != "fine\n" {
		t.Fatalf("stdout = %q, %v; want the good frame and then an error", out, err)
	}
	if err := p.Wait(); err != nil {
		t.Fatalf("Wait: %v", err)
	}
}

// New checks what it can without the engine: an image, and an address
// it will speak to.
func TestNew(t *testing.T) {
	if _, err := New(Options{}); err == nil || !strings.Contains(err.Error(), "needs an image") {
		t.Fatalf("no image: %v", err)
	}
	if _, err := New(Options{Image: "i", Host: "tcp://203.0.113.9:2375"}); err == nil || !strings.Contains(err.Error(), "only on loopback") {
		t.Fatalf("remote tcp engine: %v", err)
	}
	r, err := New(Options{Image: "alpine:3", Host: "unix:///nowhere.sock"})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.(*process.Runner).Where(); got != "container alpine:3" {
		t.Fatalf("Where = %q", got)
	}
}

// Without an address, the first default socket that exists is used:
// rootless Podman's under XDG_RUNTIME_DIR when no system one is there.
func TestDefaultSocket(t *testing.T) {
	t.Setenv("DOCKER_HOST", "")
	run := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", run)
	socks := defaultSockets()
	if want := filepath.Join(run, "podman", "podman.sock"); len(socks) != 3 || socks[2] != want {
		t.Fatalf("defaultSockets = %q", socks)
	}
	for _, system := range socks[:2] {
		if _, err := os.Stat(system); err == nil {
			t.Skipf("%s exists here; the fallback cannot be seen", system)
		}
	}
	e, err := newEngine("")
	if err != nil || e.host != "unix:///var/run/docker.sock" {
		t.Fatalf("no socket anywhere: %+v %v; want Docker's, named in the error to come", e, err)
	}
	if err := os.MkdirAll(filepath.Dir(socks[2]), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(socks[2], nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if e, err := newEngine(""); err != nil || e.host != "unix://"+socks[2] {
		t.Fatalf("rootless Podman's socket not found: %+v %v", e, err)
	}
}

// An engine that takes the attach call and never answers holds the
// launch only until its context ends; the container is removed.
func TestAHungAttachEndsWithTheContext(t *testing.T) {
	s := newLaunchSetup(t)
	held := make(chan struct{})
	s.engine.routes["POST /containers/{id}/attach"] = func(w http.ResponseWriter, _ *http.Request) {
		if conn, _ := s.engine.hijack(w, ""); conn != nil {
			close(held)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	launched := make(chan error, 1)
	go func() {
		_, err := s.l.Launch(ctx, s.job(false, "read_file"), nil, io.Discard)
		launched <- err
	}()
	<-held
	cancel()
	if err := <-launched; err == nil || !strings.Contains(err.Error(), "attach") {
		t.Fatalf("Launch = %v", err)
	}
	if !slices.Contains(s.engine.Calls(), "DELETE /containers/{id}?force=1") {
		t.Fatalf("the container was not removed: %q", s.engine.Calls())
	}
}

// Without a binary named, this program is the one mounted, once it is
// static; a test binary built with the race detector is not, and the
// error names it and the fix.
func TestStaticBinaryDefaultsToThisProgram(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	got, err := staticBinary("")
	if err == nil && got != exe || err != nil && !strings.Contains(err.Error(), exe) {
		t.Fatalf("staticBinary(\"\") = %q, %v; want %s", got, err, exe)
	}
	if err != nil && !strings.Contains(err.Error(), "CGO_ENABLED=0") {
		t.Fatalf("the error does not say how to build one: %v", err)
	}
}
