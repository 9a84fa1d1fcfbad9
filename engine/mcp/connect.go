package mcp

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"os/exec"
	"slices"
	"sync"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-e4e525a6/baton/engine/lastbytes"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// conn is one live connection to a server: the protocol session and, for
// a stdio server, its process.
type conn struct {
	session *sdk.ClientSession
	client  *sdk.Client
	// offer is what the server offered when last listed.
	offer  offering
	cmd    *exec.Cmd
	stderr *lastbytes.Writer
	// stop ends the process's context, which kills its group.
	stop context.CancelFunc
	// changed is signalled (never blocking) when the server says a list
	// changed; the connection's follower reads it.
	changed chan struct{}
	// roots are the roots the client holds now (see Manager.syncRoots).
	rootsMu sync.Mutex
	roots   []root
}

// stderrTail bounds what is kept of a server's stderr: enough to say why
// it died, never the whole stream.
const stderrTail = 2048

// dial starts or reaches the server and lists its tools. life bounds the
// connection (its end kills the process group); the handshake is bounded
// by timeout.
func (m *Manager) dial(life context.Context, s Server, timeout time.Duration) (*conn, error) {
	proc, stop := context.WithCancel(life)
	c := &conn{stop: stop, changed: make(chan struct{}, 1)}
	var transport sdk.Transport
	switch {
	case s.Command != "":
		c.cmd, c.stderr = m.command(proc, s), &lastbytes.Writer{Max: stderrTail}
		c.cmd.Stderr = c.stderr
		transport = &sdk.CommandTransport{Command: c.cmd, TerminateDuration: 2 * time.Second}
	case s.SSE:
		transport = &sdk.SSEClientTransport{Endpoint: s.URL, HTTPClient: headerClient(s.Headers)}
	default:
		transport = &sdk.StreamableClientTransport{Endpoint: s.URL, HTTPClient: headerClient(s.Headers), MaxRetries: -1}
	}
	ctx, cancel := context.WithTimeout(life, timeout)
	defer cancel()
	// A server that does not answer in time is killed at once, rather
	// than asked to close a session it never opened.
	defer context.AfterFunc(ctx, func() {
		if ctx.Err() == context.DeadlineExceeded {
			stop()
		}
	})()
	changed := func() {
		select {
		case c.changed <- struct{}{}:
		default: // a relist is already due
		}
	}
	c.client = sdk.NewClient(&sdk.Implementation{Name: "baton", Version: m.opts.Version}, &sdk.ClientOptions{
		ToolListChangedHandler:     func(context.Context, *sdk.ToolListChangedRequest) { changed() },
		PromptListChangedHandler:   func(context.Context, *sdk.PromptListChangedRequest) { changed() },
		ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) { changed() },
	})
	m.syncRoots(c)
	session, err := c.client.Connect(ctx, transport, nil)
	if err != nil {
		c.kill()
		return nil, c.explain("connect", ctx, err)
	}
	c.session = session
	if c.offer, err = c.list(ctx); err != nil {
		c.close()
		return nil, c.explain("list tools", ctx, err)
	}
	return c, nil
}

// command builds the server's process: in the workspace, with baton's
// environment less its secrets plus the server's env, in a process group
// of its own that is killed whole when life ends.
func (m *Manager) command(life context.Context, s Server) *exec.Cmd {
	cmd := exec.CommandContext(life, s.Command, s.Args...)
	cmd.Dir = m.opts.Dir
	env := tools.WithoutSecrets(m.opts.Environ)
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		env = append(env, k+"="+s.Env[k])
	}
	cmd.Env = env
	cmd.SysProcAttr = serverProcAttr()
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

// explain words a failed step, saying when it ran out of time and adding
// the end of the server's stderr.
func (c *conn) explain(step string, ctx context.Context, err error) error {
	if ctx.Err() == context.DeadlineExceeded {
		err = fmt.Errorf("no answer within the startup timeout")
	}
	if last := c.stderr.LastLine(); last != "" {
		return fmt.Errorf("%s: %w (stderr: %s)", step, err, last)
	}
	return fmt.Errorf("%s: %w", step, err)
}

// close ends the session and makes sure no process of the server is left.
func (c *conn) close() {
	if c.session != nil {
		_ = c.session.Close()
	}
	c.kill()
}

// kill ends the server's process group, the process and whatever it
// started; a server that exited on its own may have left children.
func (c *conn) kill() {
	c.stop()
	if c.cmd != nil && c.cmd.Process != nil {
		_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// headerClient is an HTTP client that adds the configured headers to every
// request (an Authorization header, typically).
func headerClient(headers map[string]string) *http.Client {
	if len(headers) == 0 {
		return nil
	}
	return &http.Client{Transport: headerTransport{headers: headers, next: http.DefaultTransport}}
}

// headerTransport sets headers on each request it forwards.
type headerTransport struct {
	headers map[string]string
	next    http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range t.headers {
		r.Header.Set(k, v)
	}
	return t.next.RoundTrip(r)
}
