package mcp

import (
	"context"
	"fmt"
	"iter"
	"slices"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// maxListed bounds each list a server hands over (tools, prompts,
// resources): a server paging forever must not keep baton listing.
const maxListed = 1000

// offering is what a connected server offers, as last listed.
type offering struct {
	tools   []*sdk.Tool
	prompts []*sdk.Prompt
	// hasResources says the server offers resources at all; resources
	// and templates count them (at most maxListed each).
	hasResources         bool
	resources, templates int
	// instructions are the server's, from its handshake, as sent.
	instructions string
	warnings     []string
}

// list asks the server for everything it offers that its capabilities
// announce. Only a failed tool list fails the connection: prompts and
// resources that cannot be listed are left out with a warning.
func (c *conn) list(ctx context.Context) (offering, error) {
	var o offering
	caps := &sdk.ServerCapabilities{}
	if init := c.session.InitializeResult(); init != nil {
		o.instructions = init.Instructions
		if init.Capabilities != nil {
			caps = init.Capabilities
		}
	}
	var err error
	if caps.Tools != nil || caps.Prompts == nil && caps.Resources == nil {
		var more bool
		if o.tools, more, err = collect(c.session.Tools(ctx, nil)); err != nil && caps.Tools != nil {
			return offering{}, err
		}
		o.warn(more, "tools")
	}
	if caps.Prompts != nil {
		var more bool
		if o.prompts, more, err = collect(c.session.Prompts(ctx, nil)); err != nil {
			o.warnings = append(o.warnings, fmt.Sprintf("its prompts could not be listed: %v", err))
		}
		o.warn(more, "prompts")
	}
	if caps.Resources != nil {
		o.hasResources = true
		resources, more, err := collect(c.session.Resources(ctx, nil))
		if err != nil {
			o.warnings = append(o.warnings, fmt.Sprintf("its resources could not be listed: %v", err))
		}
		o.resources = len(resources)
		o.warn(more, "resources")
		// Templates are optional: a server without them may answer the
		// request with an error, which is no reason for a warning.
		templates, _, _ := collect(c.session.ResourceTemplates(ctx, nil))
		o.templates = len(templates)
	}
	return o, nil
}

// warn notes a list that was cut at maxListed.
func (o *offering) warn(more bool, what string) {
	if more {
		o.warnings = append(o.warnings, fmt.Sprintf("it lists more than %d %s; only the first %d are used", maxListed, what, maxListed))
	}
}

// collect gathers at most maxListed items of a paged list, saying whether
// there were more.
func collect[T any](seq iter.Seq2[T, error]) (items []T, more bool, err error) {
	for item, err := range seq {
		if err != nil {
			return items, false, err
		}
		if len(items) == maxListed {
			return items, true, nil
		}
		items = append(items, item)
	}
	return items, false, nil
}

// follow lists the server's offer again each time the server says a list
// changed, and publishes it, until life ends; a list that cannot be read
// keeps the last one.
func (m *Manager) follow(life context.Context, i int, s Server, c *conn) {
	for {
		select {
		case <-life.Done():
			return
		case <-c.changed:
			ctx, cancel := context.WithTimeout(life, m.opts.StartupTimeout)
			o, err := c.list(ctx)
			cancel()
			if err == nil && life.Err() == nil {
				c.offer = o
				m.publish(i, s, c)
			}
		}
	}
}

// publish offers what the server has (tools, prompts, instructions) and
// shows it in the server's status.
func (m *Manager) publish(i int, s Server, c *conn) {
	offered, warnings := wrapTools(m, s.Name, m.callTimeout(s), c.offer.tools)
	names := make([]string, len(offered))
	for j, t := range offered {
		names[j] = t.Name()
	}
	prompts, more := promptCommands(s.Name, c.offer.prompts)
	instructions, note := serverInstructions(s, c.offer.instructions)
	warnings = slices.Concat(c.offer.warnings, warnings, more, note)
	m.mu.Lock()
	m.conns[s.Name] = c
	m.offered[s.Name] = offered
	m.mu.Unlock()
	m.syncRoots(c) // roots may have changed since the client was made
	m.setStatus(i, func(st *event.MCPServer) {
		st.State, st.Error, st.Tools, st.Prompts = event.MCPConnected, "", names, prompts
		st.HasResources, st.Resources, st.Templates = c.offer.hasResources, c.offer.resources, c.offer.templates
		st.Instructions, st.Warnings = instructions, warnings
	})
}
