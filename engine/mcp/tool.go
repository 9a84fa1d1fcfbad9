package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Prefix starts the name of every MCP tool: mcp__SERVER__TOOL.
const Prefix = "mcp__"

// Bounds of what a server hands the model.
const (
	// maxNameLen is the longest function name OpenAI accepts.
	maxNameLen = 64
	// maxDescription bounds a tool's description, which a server writes
	// and every request carries: far above what real servers write (their
	// longest hold a few thousand characters of usage rules, which must
	// reach the model whole), low enough that one server cannot fill the
	// context.
	maxDescription = 16000
)

// Tool is one tool of a connected server, offered to agents under its
// mcp__SERVER__TOOL name. Calls go to the server's current connection,
// so a restarted server keeps serving the same tools.
type Tool struct {
	m              *Manager
	server, remote string
	name, desc     string
	schema         json.RawMessage
	// timeout bounds one call (the server's call_timeout_s).
	timeout time.Duration
}

// invalidChars are what a function name may not hold.
func invalidChars() *regexp.Regexp {
	invalidCharsOnce.Do(func() { invalidCharsValue = regexp.MustCompile(`[^A-Za-z0-9_-]`) })
	return invalidCharsValue
}

// invalidCharsOnce and invalidCharsValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	invalidCharsOnce  sync.Once
	invalidCharsValue *regexp.Regexp
)

// ToolName is the name a server's tool is offered under: characters a
// function name cannot hold become '_', and it is cut to 64 characters.
func ToolName(server, tool string) string {
	name := Prefix + server + "__" + invalidChars().ReplaceAllString(tool, "_")
	if len(name) > maxNameLen {
		name = name[:maxNameLen]
	}
	return name
}

// wrapTools turns a server's tool list into tools; a second tool whose
// name comes out the same is left out rather than shadowing the first.
// The warnings name each description cut at maxDescription.
func wrapTools(m *Manager, server string, timeout time.Duration, list []*sdk.Tool) ([]*Tool, []string) {
	var (
		out      []*Tool
		warnings []string
	)
	seen := map[string]bool{}
	for _, t := range list {
		name := ToolName(server, t.Name)
		if t.Name == "" || seen[name] {
			continue
		}
		seen[name] = true
		desc := strings.TrimSpace(t.Description)
		if n := utf8.RuneCountInString(desc); n > maxDescription {
			desc = fmt.Sprintf("%s… [description cut: %d more characters]", string([]rune(desc)[:maxDescription]), n-maxDescription)
			warnings = append(warnings, fmt.Sprintf("the description of %s has %d characters; the model gets the first %d", name, n, maxDescription))
		}
		out = append(out, &Tool{m: m, server: server, remote: t.Name, name: name, timeout: timeout,
			desc: fmt.Sprintf("%s (MCP server %s)", desc, server), schema: objectSchema(t.InputSchema)})
	}
	return out, warnings
}

// objectSchema returns the tool's input schema as JSON, or an empty
// object schema when the server sent none or something else.
func objectSchema(schema any) json.RawMessage {
	m, ok := schema.(map[string]any)
	if !ok || m["type"] != "object" {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	if _, ok := m["properties"]; !ok {
		m["properties"] = map[string]any{}
	}
	data, err := json.Marshal(m)
	if err != nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return data
}

// Name implements tools.Tool.
func (t *Tool) Name() string { return t.name }

// Description implements tools.Tool.
func (t *Tool) Description() string { return t.desc }

// Schema implements tools.Tool.
func (t *Tool) Schema() json.RawMessage { return t.schema }

// ReadOnly implements tools.Tool: baton cannot know what a server's tool
// does, so every call is approved like run_command.
func (t *Tool) ReadOnly() bool { return false }

// Server is the name of the server the tool belongs to.
func (t *Tool) Server() string { return t.server }

// Title implements tools.Tool: the name and the arguments on one line.
func (t *Tool) Title(args json.RawMessage) string {
	a := strings.Join(strings.Fields(string(args)), " ")
	if a == "" || a == "{}" {
		return t.name
	}
	if utf8.RuneCountInString(a) > 80 {
		a = string([]rune(a)[:80]) + "…"
	}
	return t.name + " " + a
}

// Preview implements tools.Previewer: the person approving a call sees
// the server, its own name for the tool and every argument.
func (t *Tool) Preview(_ context.Context, args json.RawMessage) (string, error) {
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, args, "", "  "); err != nil {
		return "", fmt.Errorf("arguments of %s must be a JSON object: %w", t.name, err)
	}
	return fmt.Sprintf("%s on MCP server %s\n%s", t.remote, t.server, pretty.String()), nil
}

// Run implements tools.Tool: it calls the tool on the server's current
// connection. A server error and a result marked isError both come back
// as errors, which the model receives as a tool error.
func (t *Tool) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	var arguments map[string]any
	if err := json.Unmarshal(args, &arguments); err != nil {
		return tools.Result{}, fmt.Errorf("arguments of %s must be a JSON object: %w", t.name, err)
	}
	c, ok := t.m.live(t.server)
	if !ok {
		return tools.Result{}, fmt.Errorf("MCP server %s is not connected (see /mcp); try again later or do without it", t.server)
	}
	call, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	res, err := c.session.CallTool(call, &sdk.CallToolParams{Name: t.remote, Arguments: arguments})
	if ctx.Err() == nil && errors.Is(call.Err(), context.DeadlineExceeded) {
		return tools.Result{}, fmt.Errorf("MCP server %s did not answer %s within %s (call_timeout_s); the call was abandoned",
			t.server, t.remote, seconds(t.timeout))
	}
	if err != nil {
		return tools.Result{}, fmt.Errorf("MCP server %s: %w", t.server, err)
	}
	out := renderResult(res).result()
	if res.IsError {
		if out.Output == "" {
			out.Output = "the tool reported an error without a message"
		}
		return tools.Result{}, fmt.Errorf("%s failed: %s", t.name, out.Output)
	}
	return out, nil
}

// seconds writes a bound the way the config does, in seconds.
func seconds(d time.Duration) string {
	if d%time.Second != 0 {
		return d.String()
	}
	return fmt.Sprintf("%d s", int(d/time.Second))
}
