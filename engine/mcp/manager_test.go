package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/mcp/mcptest"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// call runs the named tool of m with args.
func call(t *testing.T, m *Manager, name, args string) (tools.Result, error) {
	t.Helper()
	i := slices.IndexFunc(m.Tools(), func(tl tools.Tool) bool { return tl.Name() == name })
	if i < 0 {
		t.Fatalf("no tool %s among %v", name, toolNames(m))
	}
	return m.Tools()[i].Run(context.Background(), json.RawMessage(args))
}

func toolNames(m *Manager) []string {
	var names []string
	for _, tl := range m.Tools() {
		names = append(names, tl.Name())
	}
	return names
}

func TestStdioServerOffersItsToolsAndAnswers(t *testing.T) {
	m := startManager(t, Options{}, stdioServer(t, "srv", mcptest.ModeServe, nil))
	st := waitFor(t, m, "srv", inState(event.MCPConnected))
	want := []string{"mcp__srv__crash", "mcp__srv__echo", "mcp__srv__fail", "mcp__srv__hang", "mcp__srv__image", "mcp__srv__pid", "mcp__srv__roots", "mcp__srv__spawn"}
	got := slices.Sorted(slices.Values(st.Tools))
	if !slices.Equal(got, want) {
		t.Fatalf("status tools = %v, want %v", got, want)
	}
	res, err := call(t, m, "mcp__srv__echo", `{"text":"hi there"}`)
	if err != nil || res.Output != "echo: hi there" {
		t.Fatalf("echo = %q, %v", res.Output, err)
	}
	echo := m.Tools()[slices.IndexFunc(m.Tools(), func(tl tools.Tool) bool { return tl.Name() == "mcp__srv__echo" })]
	if !strings.Contains(string(echo.Schema()), `"text"`) || echo.ReadOnly() {
		t.Fatalf("echo schema %s, read-only %v", echo.Schema(), echo.ReadOnly())
	}
	if _, err := call(t, m, "mcp__srv__fail", `{}`); err == nil || !strings.Contains(err.Error(), "boom: the widget is broken") {
		t.Fatalf("fail: err = %v, want the server's error text", err)
	}
	res, err = call(t, m, "mcp__srv__image", `{}`)
	if err != nil || res.Output != fmt.Sprintf("a red dot\n[image: image/png, %d bytes]", len(mcptest.DotPNG())) || len(res.Images) != 1 {
		t.Fatalf("image = %q, %v", res.Output, err)
	}
	if _, err := call(t, m, "mcp__srv__echo", `[1,2]`); err == nil {
		t.Fatal("non-object arguments were accepted")
	}
}

// TestCallThatIsNeverAnsweredTimesOut: a server that never answers a
// tools/call is given up on after the call timeout (the server's own, or
// the manager's), the model gets a tool error naming the server and the
// key, and the server keeps serving the calls that come after.
func TestCallThatIsNeverAnsweredTimesOut(t *testing.T) {
	own := stdioServer(t, "own", mcptest.ModeServe, nil)
	own.CallTimeout = 150 * time.Millisecond
	m := startManager(t, Options{CallTimeout: 250 * time.Millisecond}, own, stdioServer(t, "srv", mcptest.ModeServe, nil))
	for name, want := range map[string]string{"own": "150ms", "srv": "250ms"} {
		waitFor(t, m, name, inState(event.MCPConnected))
		hang := m.Tools()[slices.IndexFunc(m.Tools(), func(tl tools.Tool) bool { return tl.Name() == "mcp__"+name+"__hang" })]
		// Bounded, so a missing timeout fails the test instead of hanging it.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		_, err := hang.Run(ctx, json.RawMessage(`{}`))
		cancel()
		if err == nil || err.Error() != "MCP server "+name+" did not answer hang within "+want+" (call_timeout_s); the call was abandoned" {
			t.Fatalf("%s: hang: err = %v", name, err)
		}
		if res, err := call(t, m, "mcp__"+name+"__echo", `{"text":"still here"}`); err != nil || res.Output != "echo: still here" {
			t.Fatalf("%s: echo after the timeout = %q, %v", name, res.Output, err)
		}
	}
}

func TestCallTimeoutIsBounded(t *testing.T) {
	m := NewManager(nil, Options{})
	if got := m.callTimeout(Server{}); got != DefaultCallTimeout {
		t.Errorf("default call timeout %s, want %s", got, DefaultCallTimeout)
	}
	if got := NewManager(nil, Options{CallTimeout: time.Hour}).callTimeout(Server{}); got != MaxCallTimeout {
		t.Errorf("manager call timeout %s, want the maximum %s", got, MaxCallTimeout)
	}
	if got := m.callTimeout(Server{CallTimeout: time.Hour}); got != MaxCallTimeout {
		t.Errorf("server call timeout %s, want the maximum %s", got, MaxCallTimeout)
	}
}

func TestHTTPServerGetsItsHeaders(t *testing.T) {
	url := mcptest.HTTP(t, map[string]string{"Authorization": "Bearer sesame"})
	m := startManager(t, Options{},
		Server{Name: "web", URL: url, Headers: map[string]string{"Authorization": "Bearer sesame"}},
		Server{Name: "nokey", URL: url})
	waitFor(t, m, "web", inState(event.MCPConnected))
	res, err := call(t, m, "mcp__web__echo", `{"text":"over http"}`)
	if err != nil || res.Output != "echo: over http" {
		t.Fatalf("echo = %q, %v", res.Output, err)
	}
	st := waitFor(t, m, "nokey", inState(event.MCPFailed))
	if st.Error == "" || slices.ContainsFunc(toolNames(m), func(n string) bool { return strings.HasPrefix(n, "mcp__nokey__") }) {
		t.Fatalf("server without its header: %+v, tools %v", st, toolNames(m))
	}
}

func TestCrashedServerIsRestartedWithBackoff(t *testing.T) {
	release := make(chan struct{})
	var asked []int
	backoff := func(n int) time.Duration {
		asked = append(asked, n)
		<-release
		return 0
	}
	m := startManager(t, Options{Backoff: backoff}, stdioServer(t, "srv", mcptest.ModeServe, nil))
	waitFor(t, m, "srv", inState(event.MCPConnected))
	if _, err := call(t, m, "mcp__srv__crash", `{}`); err == nil {
		t.Fatal("a call that crashed the server succeeded")
	}
	st := waitFor(t, m, "srv", inState(event.MCPRestarting))
	if st.Restarts != 1 || !strings.Contains(st.Error, "exit status 3") || !strings.Contains(st.Error, "crashing on purpose") || len(m.Tools()) != 0 {
		t.Fatalf("while restarting: %+v, tools %v", st, toolNames(m))
	}
	if _, err := (&Tool{m: m, server: "srv", remote: "echo", name: "mcp__srv__echo"}).Run(context.Background(), json.RawMessage(`{}`)); err == nil || !strings.Contains(err.Error(), "not connected") {
		t.Fatalf("call while restarting: %v", err)
	}
	close(release)
	waitFor(t, m, "srv", func(s event.MCPServer) bool { return s.State == event.MCPConnected && s.Restarts == 1 })
	if res, err := call(t, m, "mcp__srv__echo", `{"text":"again"}`); err != nil || res.Output != "echo: again" {
		t.Fatalf("echo after restart = %q, %v", res.Output, err)
	}
	if !slices.Equal(asked, []int{1}) {
		t.Fatalf("backoff asked for %v", asked)
	}
}

func TestServerThatKeepsCrashingIsGivenUp(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "started")
	m := startManager(t, Options{}, stdioServer(t, "srv", mcptest.ModeOnce, map[string]string{mcptest.MarkerEnv: marker}))
	waitFor(t, m, "srv", inState(event.MCPConnected))
	_, _ = call(t, m, "mcp__srv__crash", `{}`)
	st := waitFor(t, m, "srv", inState(event.MCPFailed))
	if !strings.Contains(st.Error, "gave up after 5 restarts") || !strings.Contains(st.Error, "refusing to start twice") {
		t.Fatalf("status = %+v", st)
	}
}

func TestServerThatHangsOnInitialiseTimesOut(t *testing.T) {
	// The bound leaves the healthy server room to start on a loaded
	// machine (300 ms did not, at a load of 28).
	m := startManager(t, Options{StartupTimeout: 2 * time.Second},
		stdioServer(t, "stuck", mcptest.ModeHang, nil), stdioServer(t, "ok", mcptest.ModeServe, nil))
	st := waitFor(t, m, "stuck", inState(event.MCPFailed))
	if !strings.Contains(st.Error, "no answer within the startup timeout") {
		t.Fatalf("status = %+v", st)
	}
	waitFor(t, m, "ok", inState(event.MCPConnected))
}

func TestMissingCommandFails(t *testing.T) {
	m := startManager(t, Options{}, Server{Name: "gone", Command: "/nonexistent/mcp-server"})
	st := waitFor(t, m, "gone", inState(event.MCPFailed))
	if !strings.Contains(st.Error, "no such file") {
		t.Fatalf("status = %+v", st)
	}
}

func TestNoServerProcessSurvivesClose(t *testing.T) {
	m := NewManager([]Server{stdioServer(t, "srv", mcptest.ModeServe, nil)}, Options{Environ: os.Environ()})
	m.Start(context.Background())
	defer m.Close()
	waitFor(t, m, "srv", inState(event.MCPConnected))
	var pids []int
	for _, name := range []string{"mcp__srv__pid", "mcp__srv__spawn"} {
		res, err := call(t, m, name, `{}`)
		if err != nil {
			t.Fatal(err)
		}
		pid, err := strconv.Atoi(res.Output)
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, pid)
	}
	// A pidfd becomes readable when its process exits, so the test waits
	// for the exit itself instead of sampling /proc.
	var fds []int
	for _, pid := range pids {
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			t.Fatalf("process %d is not running before Close: %v", pid, err)
		}
		defer unix.Close(fd)
		fds = append(fds, fd)
	}
	m.Close()
	for i, fd := range fds {
		polled := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(polled, int((30 * time.Second).Milliseconds()))
		if err != nil || n != 1 {
			t.Errorf("process %d outlived the manager (poll: %d, %v)", pids[i], n, err)
		}
	}
}

func TestUntrustedProjectServerStartsOnlyWhenAllowed(t *testing.T) {
	project := func(name string) Server {
		s := stdioServer(t, name, mcptest.ModeServe, nil)
		s.Project, s.Source = true, ".mcp.json"
		return s
	}
	m := startManager(t, Options{}, project("a"))
	st := waitFor(t, m, "a", inState(event.MCPNotStarted))
	if !strings.Contains(st.Error, "baton trust") {
		t.Fatalf("status = %+v", st)
	}
	var shown []string
	ask := func(_ context.Context, s Server) bool {
		shown = append(shown, s.Target())
		return s.Name == "yes"
	}
	m = startManager(t, Options{Ask: ask}, project("yes"))
	waitFor(t, m, "yes", inState(event.MCPConnected))
	m2 := startManager(t, Options{Ask: ask}, project("no"))
	waitFor(t, m2, "no", inState(event.MCPNotStarted))
	if len(shown) != 2 || !strings.Contains(shown[0], "-test.run=") {
		t.Fatalf("asked with %q", shown)
	}
}
