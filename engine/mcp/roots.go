//lint:file-ignore SA1019 the 2026-07-28 protocol deprecates roots, but servers in use (the filesystem server among them) still ask for them, so baton keeps answering

package mcp

import (
	"maps"
	"net/url"
	"path/filepath"
	"slices"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// root is one folder servers are told they may work in (roots/list).
type root struct{ uri, name string }

// fileRoot is the root of a folder.
func fileRoot(dir, name string) root {
	return root{uri: (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String(), name: name}
}

// AddRoot adds a folder, such as a sub-agent's worktree, to the roots
// every server gets from roots/list, next to the workspace, and tells the
// connected servers the list changed (a server that does not read what
// it is sent holds this up to the SDK's bound on a notification).
func (m *Manager) AddRoot(dir, name string) {
	if m == nil {
		return
	}
	r := fileRoot(dir, name)
	m.mu.Lock()
	m.roots = append(slices.DeleteFunc(m.roots, func(o root) bool { return o.uri == r.uri }), r)
	m.mu.Unlock()
	m.rootsChanged()
}

// RemoveRoot takes a folder AddRoot added off the roots again.
func (m *Manager) RemoveRoot(dir string) {
	if m == nil {
		return
	}
	uri := fileRoot(dir, "").uri
	m.mu.Lock()
	m.roots = slices.DeleteFunc(m.roots, func(o root) bool { return o.uri == uri })
	m.mu.Unlock()
	m.rootsChanged()
}

// currentRoots are the workspace (the folder stdio servers run in) and
// the folders added since.
func (m *Manager) currentRoots() []root {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []root
	if m.opts.Dir != "" {
		out = append(out, fileRoot(m.opts.Dir, "workspace "+filepath.Base(m.opts.Dir)))
	}
	return append(out, m.roots...)
}

// rootsChanged brings every connection's roots up to date.
func (m *Manager) rootsChanged() {
	m.mu.Lock()
	conns := slices.Collect(maps.Values(m.conns))
	m.mu.Unlock()
	for _, c := range conns {
		m.syncRoots(c)
	}
}

// syncRoots makes the roots c's client holds the current ones; the SDK
// tells the server when they change.
func (m *Manager) syncRoots(c *conn) {
	want := m.currentRoots()
	c.rootsMu.Lock()
	defer c.rootsMu.Unlock()
	var gone []string
	for _, r := range c.roots {
		if !slices.Contains(want, r) {
			gone = append(gone, r.uri)
		}
	}
	var added []*sdk.Root
	for _, r := range want {
		if !slices.Contains(c.roots, r) {
			added = append(added, &sdk.Root{URI: r.uri, Name: r.name})
		}
	}
	if len(gone) > 0 {
		c.client.RemoveRoots(gone...)
	}
	c.client.AddRoots(added...)
	c.roots = want
}
