package mcp

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Bounds of starting and restarting servers.
const (
	// DefaultStartupTimeout bounds one start: launch, handshake, tool list.
	DefaultStartupTimeout = 30 * time.Second
	// MaxStartupTimeout is the most any config may ask for.
	MaxStartupTimeout = 10 * time.Minute
	// maxRestarts is how many times a crashed server is started again
	// before it is left failed.
	maxRestarts = 5
	// DefaultCallTimeout bounds one tool call: a server that never
	// answers a tools/call must not hang a run.
	DefaultCallTimeout = 120 * time.Second
	// MaxCallTimeout is the most any config may ask for.
	MaxCallTimeout = 10 * time.Minute
)

// Options configure a Manager. Zero fields take defaults.
type Options struct {
	// StartupTimeout bounds each start (default 30 s, at most 10 min).
	StartupTimeout time.Duration
	// CallTimeout bounds each tool call of a server that sets none of its
	// own (default 120 s, at most 10 min).
	CallTimeout time.Duration
	// Dir is where stdio servers run (the workspace).
	Dir string
	// Environ is the environment stdio servers inherit, less baton's
	// secrets (usually os.Environ()).
	Environ []string
	// Version is baton's version, sent in the handshake.
	Version string
	// Backoff is the pause before the n-th restart (n from 1); nil
	// doubles from one second up to 30 s.
	Backoff func(n int) time.Duration
	// Ask decides whether a server from an untrusted project may start,
	// showing the person its command line; nil leaves such servers
	// unstarted.
	Ask func(ctx context.Context, s Server) bool
}

// Manager runs the configured servers for the life of a session: each in
// a goroutine of its own that starts it, watches it, restarts it after a
// crash and ends it when the manager closes.
type Manager struct {
	opts    Options
	servers []Server

	mu       sync.Mutex
	statuses []event.MCPServer
	conns    map[string]*conn
	offered  map[string][]*Tool
	changed  chan struct{} // closed and replaced on every status change
	// roots are the folders added to the workspace root (AddRoot).
	roots []root
	// prompts is the connected servers' prompts, replaced whole on every
	// status change, so Prompts reads it without the lock.
	prompts atomic.Pointer[[]event.MCPPrompt]

	cancel context.CancelFunc
	wg     sync.WaitGroup
	closed bool
}

// NewManager prepares a manager for servers; nothing starts before Start.
func NewManager(servers []Server, opts Options) *Manager {
	if opts.StartupTimeout <= 0 {
		opts.StartupTimeout = DefaultStartupTimeout
	}
	opts.StartupTimeout = min(opts.StartupTimeout, MaxStartupTimeout)
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = DefaultCallTimeout
	}
	opts.CallTimeout = min(opts.CallTimeout, MaxCallTimeout)
	if opts.Backoff == nil {
		opts.Backoff = func(n int) time.Duration { return min(time.Second<<(n-1), 30*time.Second) }
	}
	m := &Manager{opts: opts, conns: map[string]*conn{}, offered: map[string][]*Tool{}, changed: make(chan struct{})}
	for _, s := range servers {
		m.servers = append(m.servers, s)
		m.statuses = append(m.statuses, event.MCPServer{Name: s.Name, Source: s.Source, Target: s.Target(), State: event.MCPStarting})
	}
	return m
}

// Start launches every server in the background and returns at once, so
// the first frame never waits for a server. The servers live until ctx
// ends or Close is called.
func (m *Manager) Start(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed || m.cancel != nil {
		cancel()
		return
	}
	m.cancel = cancel
	for i, s := range m.servers {
		m.wg.Add(1)
		// Each goroutine ends when its server has failed for good or ctx
		// ends; either way its process is gone by then.
		go func() {
			defer m.wg.Done()
			m.supervise(ctx, i, s)
		}()
	}
}

// Close ends every server and waits until each process is gone. It may
// be called more than once, and without Start.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	cancel := m.cancel
	m.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	m.wg.Wait()
}

// StartupTimeout is the bound of one start, defaults applied.
func (m *Manager) StartupTimeout() time.Duration { return m.opts.StartupTimeout }

// callTimeout is the bound of one tool call to s, defaults applied.
func (m *Manager) callTimeout(s Server) time.Duration {
	if s.CallTimeout > 0 {
		return min(s.CallTimeout, MaxCallTimeout)
	}
	return m.opts.CallTimeout
}

// Statuses returns a snapshot of every server's status, in config order.
func (m *Manager) Statuses() []event.MCPServer {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]event.MCPServer, len(m.statuses))
	for i, s := range m.statuses {
		s.Tools, s.Prompts, s.Warnings = slices.Clone(s.Tools), slices.Clone(s.Prompts), slices.Clone(s.Warnings)
		out[i] = s
	}
	return out
}

// Tools returns the tools of the connected servers, in config order,
// then list_mcp_resources and read_mcp_resource while any of them offers
// resources.
func (m *Manager) Tools() []tools.Tool {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []tools.Tool
	for _, s := range m.servers {
		for _, t := range m.offered[s.Name] {
			out = append(out, t)
		}
	}
	if slices.ContainsFunc(m.statuses, func(s event.MCPServer) bool { return s.State == event.MCPConnected && s.HasResources }) {
		out = append(out, resourceTool{m: m}, resourceTool{m: m, read: true})
	}
	return out
}

// Wait blocks until ready holds for the statuses, or ctx ends (its error
// is returned then). Tests and headless runs use it instead of polling.
func (m *Manager) Wait(ctx context.Context, ready func([]event.MCPServer) bool) error {
	for {
		m.mu.Lock()
		ch := m.changed
		m.mu.Unlock()
		if ready(m.Statuses()) {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("wait for MCP servers: %w", ctx.Err())
		}
	}
}

// AllSettled is the condition a headless run waits for: every server
// connected, failed or left unstarted.
func AllSettled(statuses []event.MCPServer) bool {
	for _, s := range statuses {
		if !s.Settled() {
			return false
		}
	}
	return true
}

// setStatus changes server i's status and wakes the waiters.
func (m *Manager) setStatus(i int, change func(*event.MCPServer)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	change(&m.statuses[i])
	var prompts []event.MCPPrompt
	for _, s := range m.statuses {
		prompts = append(prompts, s.Prompts...)
	}
	m.prompts.Store(&prompts)
	close(m.changed)
	m.changed = make(chan struct{})
}
