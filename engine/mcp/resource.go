package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// The tools that reach the resources of every connected server (Claude
// Code's ListMcpResourcesTool and ReadMcpResourceTool).
const (
	ListResourcesTool = "list_mcp_resources"
	ReadResourceTool  = "read_mcp_resource"
)

// maxResourceDescription bounds each description a listing shows.
const maxResourceDescription = 300

// ReadResource reads one resource of a connected server: its text, its
// pictures (checked like a tool's), and a note for other binary data.
func (m *Manager) ReadResource(ctx context.Context, server, uri string) (tools.Result, error) {
	c, err := m.resourceServer(server)
	if err != nil {
		return tools.Result{}, err
	}
	call, cancel := context.WithTimeout(ctx, m.requestTimeout(server))
	defer cancel()
	res, err := c.session.ReadResource(call, &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		return tools.Result{}, m.requestError(ctx, call, server, "read "+uri, err)
	}
	r := &rendering{}
	for _, rc := range res.Contents {
		if rc != nil {
			r.resource(rc, len(res.Contents) > 1)
		}
	}
	if len(r.parts) == 0 {
		r.parts = []string{"(the resource is empty)"}
	}
	return r.result(), nil
}

// resourceServer is the connection of a server that offers resources, or
// an error saying why there is none.
func (m *Manager) resourceServer(server string) (*conn, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := slices.IndexFunc(m.statuses, func(s event.MCPServer) bool { return s.Name == server })
	switch {
	case i < 0:
		return nil, fmt.Errorf("no MCP server is named %q (servers: %s)", server, strings.Join(m.namesLocked(), ", "))
	case m.statuses[i].State != event.MCPConnected:
		return nil, fmt.Errorf("MCP server %s is %s (see /mcp)", server, m.statuses[i].State)
	case !m.statuses[i].HasResources:
		return nil, fmt.Errorf("MCP server %s offers no resources", server)
	}
	return m.conns[server], nil
}

// namesLocked are the configured servers' names; m.mu is held.
func (m *Manager) namesLocked() []string {
	names := make([]string, len(m.statuses))
	for i, s := range m.statuses {
		names[i] = s.Name
	}
	return names
}

// resourceServers are the connected servers that offer resources.
func (m *Manager) resourceServers() []string {
	var out []string
	for _, s := range m.Statuses() {
		if s.State == event.MCPConnected && s.HasResources {
			out = append(out, s.Name)
		}
	}
	return out
}

// listResources lists the resources and templates of one server, or of
// every server that has them.
func (m *Manager) listResources(ctx context.Context, server string) (string, error) {
	servers := m.resourceServers()
	if server != "" {
		if _, err := m.resourceServer(server); err != nil {
			return "", err
		}
		servers = []string{server}
	}
	var b strings.Builder
	for _, name := range servers {
		c, err := m.resourceServer(name)
		if err != nil {
			fmt.Fprintf(&b, "server %s: %v\n\n", name, err)
			continue
		}
		list, err := listOne(ctx, c, m.requestTimeout(name))
		if err != nil {
			fmt.Fprintf(&b, "server %s: its resources could not be listed: %v\n\n", name, err)
			continue
		}
		fmt.Fprintf(&b, "server %s:\n%s\n", name, list)
	}
	if b.Len() == 0 {
		return "no connected MCP server offers resources", nil
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// listOne writes one server's resources and templates, a line each.
func listOne(ctx context.Context, c *conn, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	resources, more, err := collect(c.session.Resources(ctx, nil))
	if err != nil {
		return "", err
	}
	templates, moreTemplates, _ := collect(c.session.ResourceTemplates(ctx, nil))
	var b strings.Builder
	for _, r := range resources {
		if r != nil {
			b.WriteString(entryLine(r.URI, r.Name, r.MIMEType, r.Description))
		}
	}
	if more {
		fmt.Fprintf(&b, "- … (only the first %d are listed)\n", maxListed)
	}
	if len(resources) == 0 {
		b.WriteString("- (no resources)\n")
	}
	if len(templates) > 0 {
		b.WriteString("templates (fill in the {braces} and read the URI):\n")
		for _, t := range templates {
			if t != nil {
				b.WriteString(entryLine(t.URITemplate, t.Name, t.MIMEType, t.Description))
			}
		}
		if moreTemplates {
			fmt.Fprintf(&b, "- … (only the first %d are listed)\n", maxListed)
		}
	}
	return b.String(), nil
}

// entryLine is one listed resource: its URI, name, type and description.
func entryLine(uri, name, mime, desc string) string {
	line := "- " + uri
	if name != "" {
		line += "  " + bounded(name, 100)
	}
	if mime != "" {
		line += " (" + shortType(mime) + ")"
	}
	if desc = bounded(desc, maxResourceDescription); desc != "" {
		line += ": " + desc
	}
	return line + "\n"
}

// resourceTool is list_mcp_resources or read_mcp_resource. Reading
// changes nothing, so neither asks; deny rules still hold.
type resourceTool struct {
	m    *Manager
	read bool
}

// resourceArgs are the arguments of both tools.
type resourceArgs struct {
	Server string `json:"server"`
	URI    string `json:"uri"`
}

// Name implements tools.Tool.
func (t resourceTool) Name() string {
	if t.read {
		return ReadResourceTool
	}
	return ListResourcesTool
}

// Description implements tools.Tool.
func (t resourceTool) Description() string {
	servers := strings.Join(t.m.resourceServers(), ", ")
	if t.read {
		return "Read one resource of a connected MCP server by its URI (from list_mcp_resources, or a resource template with its {braces} filled in). " +
			"Servers with resources: " + servers + "."
	}
	return "List the resources connected MCP servers make available to read (documents, files, records), with their URIs, " +
		"and the resource templates whose URIs you can fill in. Read one with read_mcp_resource. Servers with resources: " + servers + "."
}

// Schema implements tools.Tool.
func (t resourceTool) Schema() json.RawMessage {
	if t.read {
		return json.RawMessage(`{"type":"object","properties":{` +
			`"server":{"type":"string","description":"the MCP server's name"},` +
			`"uri":{"type":"string","description":"the resource's URI"}},"required":["server","uri"]}`)
	}
	return json.RawMessage(`{"type":"object","properties":{` +
		`"server":{"type":"string","description":"list only this MCP server's resources (default: every server's)"}}}`)
}

// ReadOnly implements tools.Tool.
func (resourceTool) ReadOnly() bool { return true }

// Title implements tools.Tool.
func (t resourceTool) Title(args json.RawMessage) string {
	var a resourceArgs
	_ = json.Unmarshal(args, &a)
	return strings.TrimSpace(strings.Join([]string{t.Name(), bounded(a.Server, 40), bounded(a.URI, 80)}, " "))
}

// Run implements tools.Tool.
func (t resourceTool) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	var a resourceArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return tools.Result{}, fmt.Errorf("arguments of %s: %w", t.Name(), err)
	}
	if !t.read {
		text, err := t.m.listResources(ctx, a.Server)
		if err != nil {
			return tools.Result{}, err
		}
		return tools.Result{Output: text, Summary: summary(text)}, nil
	}
	if a.Server == "" || a.URI == "" {
		return tools.Result{}, fmt.Errorf("%s needs server and uri", ReadResourceTool)
	}
	return t.m.ReadResource(ctx, a.Server, a.URI)
}

// requestTimeout bounds a prompt or resource request to the named server
// as its tool calls are bounded (call_timeout_s).
func (m *Manager) requestTimeout(server string) time.Duration {
	for _, s := range m.servers {
		if s.Name == server {
			return m.callTimeout(s)
		}
	}
	return m.opts.CallTimeout
}

// requestError words a failed request: one that ran out of call's time
// says so, as a tool call's does.
func (m *Manager) requestError(ctx, call context.Context, server, what string, err error) error {
	if ctx.Err() == nil && errors.Is(call.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("MCP server %s did not answer %s within %s (call_timeout_s); the request was abandoned", server, what, seconds(m.requestTimeout(server)))
	}
	return fmt.Errorf("%s from MCP server %s: %w", what, server, err)
}
