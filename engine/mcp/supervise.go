package mcp

import (
	"context"
	"fmt"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// supervise runs server i until ctx ends: it asks first when the server
// came with an untrusted project, starts it, and after a crash starts it
// again with growing pauses, at most maxRestarts times. A server that
// fails its first start is not retried: a wrong command or a hang on
// initialise will not fix itself.
func (m *Manager) supervise(ctx context.Context, i int, s Server) {
	if s.Project && !m.allowed(ctx, i, s) {
		return
	}
	for restarts := 0; ; restarts++ {
		err := m.runOnce(ctx, i, s)
		if ctx.Err() != nil {
			return
		}
		if restarts == 0 && !m.everConnected(i) || restarts >= maxRestarts {
			if restarts > 0 {
				err = fmt.Errorf("gave up after %d restarts: %w", restarts, err)
			}
			m.setStatus(i, func(st *event.MCPServer) { offline(st, event.MCPFailed, err) })
			return
		}
		m.setStatus(i, func(st *event.MCPServer) {
			offline(st, event.MCPRestarting, err)
			st.Restarts = restarts + 1
		})
		select {
		case <-time.After(m.opts.Backoff(restarts + 1)):
		case <-ctx.Done():
			return
		}
	}
}

// allowed decides a project server in an untrusted folder: Ask shows its
// command line to the person; without Ask it stays unstarted.
func (m *Manager) allowed(ctx context.Context, i int, s Server) bool {
	if m.opts.Ask == nil {
		m.setStatus(i, func(st *event.MCPServer) {
			st.State, st.Error = event.MCPNotStarted, "this folder is not trusted; run `baton trust` here to start the servers of "+s.Source
		})
		return false
	}
	m.setStatus(i, func(st *event.MCPServer) { st.State = event.MCPAwaitingApproval })
	if !m.opts.Ask(ctx, s) {
		m.setStatus(i, func(st *event.MCPServer) {
			st.State, st.Error = event.MCPNotStarted, "not allowed to start; `baton trust` trusts this folder's servers"
		})
		return false
	}
	m.setStatus(i, func(st *event.MCPServer) { st.State = event.MCPStarting })
	return true
}

// runOnce starts the server, offers its tools while it runs, and returns
// why the connection ended.
func (m *Manager) runOnce(ctx context.Context, i int, s Server) error {
	life, end := context.WithCancel(ctx)
	defer end()
	c, err := m.dial(life, s, m.opts.StartupTimeout)
	if err != nil {
		return err
	}
	defer c.close()
	// An HTTP session has no process to kill: ending life closes it, which
	// ends the Wait below.
	stop := context.AfterFunc(life, func() { _ = c.session.Close() })
	defer stop()
	m.publish(i, s, c)
	following, stopFollowing := context.WithCancel(life)
	followed := make(chan struct{})
	// The follower ends when stopped below, once the session has ended.
	go func() {
		defer close(followed)
		m.follow(following, i, s, c)
	}()
	err = c.session.Wait()
	stopFollowing()
	<-followed
	m.withdraw(s.Name)
	c.close() // reaps a stdio server, so its exit status is known
	switch {
	case c.cmd != nil && c.cmd.ProcessState != nil:
		err = fmt.Errorf("the server exited (%s)", c.cmd.ProcessState)
	case err == nil:
		err = fmt.Errorf("the server closed the connection")
	}
	return c.explain("ended", ctx, err)
}

// offline marks a server that is no longer connected: nothing it offered
// stays, and err says why.
func offline(st *event.MCPServer, state event.MCPState, err error) {
	*st = event.MCPServer{Name: st.Name, Source: st.Source, Target: st.Target, State: state, Error: err.Error(), Restarts: st.Restarts}
}

// everConnected reports whether server i has been connected at least once.
func (m *Manager) everConnected(i int) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.statuses[i].State == event.MCPConnected || m.statuses[i].Restarts > 0
}

// withdraw forgets a server's connection and tools once it ended.
func (m *Manager) withdraw(server string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.conns, server)
	delete(m.offered, server)
}

// live returns the server's current connection, if it is connected.
func (m *Manager) live(server string) (*conn, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.conns[server]
	return c, ok
}
