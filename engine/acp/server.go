package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/acp/jsonrpc"
	"github.com/seed-e4e525a6/baton/engine/mcp"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Options are what the server needs from the program around it.
type Options struct {
	// Open starts a baton session as the client asks: new, or one of
	// baton's sessions loaded again. cmd builds it from the config of
	// the client's folder, as a run in that folder would.
	Open func(ctx context.Context, req OpenRequest) (Opened, error)
	// List lists baton's sessions of a folder ("" for every folder),
	// newest first; nil offers no session/list.
	List func(workspace string) ([]Listed, error)
	// Version is baton's version, told to the client.
	Version string
}

// OpenRequest is a session the client asked for.
type OpenRequest struct {
	// Workspace is the folder it works in, absolute.
	Workspace string
	// SessionID names the session to load; "" starts a new one.
	SessionID string
	// MCPServers are the client's MCP servers, added to the person's own.
	MCPServers []mcp.Server
	// Editor reads, writes and runs through the client where it offers
	// to (see tools.Editor).
	Editor tools.Editor
}

// Opened is a session started for the client.
type Opened struct {
	Session *engine.Session
	// Notices are what the person should be told first: project settings
	// withheld, agent files skipped, servers left out.
	Notices []string
	// ContextWindow is a model's context window (0: unknown).
	ContextWindow func(model string) int64
	// Close ends the session and what was started with it.
	Close func()
}

// Listed is one of baton's sessions as session/list shows it.
type Listed struct {
	ID, Workspace, Title string
	LastActive           time.Time
}

// Server is baton as an ACP agent: it answers one client on one
// connection, each of the client's sessions a baton session.
type Server struct {
	opts Options
	c    *jsonrpc.Conn
	// ctx ends when the connection does; sessions live under it.
	ctx context.Context

	mu       sync.Mutex
	caps     clientCapabilities
	sessions map[string]*session
}

// Serve answers the client reading r and writing w until r ends or ctx
// is cancelled, then closes every session it opened and waits for the
// requests being answered.
func Serve(ctx context.Context, r io.Reader, w io.Writer, opts Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	srv := &Server{opts: opts, ctx: ctx, sessions: map[string]*session{}}
	srv.c = jsonrpc.NewConn(w, srv, jsonrpc.Options{})
	read := make(chan error, 1)
	// The reader ends when r does. When ctx ends first (baton was told
	// to stop) it may stay blocked reading the client's pipe, which
	// nothing can interrupt, until the process exits; requests it reads
	// meanwhile are refused.
	go func() { read <- srv.c.Serve(ctx, r) }()
	var err error
	select {
	case err = <-read:
	case <-ctx.Done():
	}
	cancel()
	srv.closeAll()
	srv.c.Wait()
	return err
}

// closeAll ends every session, waiting for each.
func (srv *Server) closeAll() {
	srv.mu.Lock()
	open := srv.sessions
	srv.sessions = map[string]*session{}
	srv.mu.Unlock()
	for _, ss := range open {
		ss.close()
	}
}

// Request implements jsonrpc.Handler.
func (srv *Server) Request(ctx context.Context, method string, params json.RawMessage) (any, func(), error) {
	switch method {
	case "initialize":
		return srv.initialize(params)
	case "authenticate":
		// No method is offered: the endpoint is configured where baton
		// runs, and nothing here needs signing in.
		return struct{}{}, nil, nil
	case "session/new":
		return srv.newSession(params)
	case "session/load":
		return srv.loadSession(params)
	case "session/list":
		return srv.list(params)
	case "session/close":
		return srv.closeSession(params)
	}
	answer, ok := sessionMethod(method)
	if !ok {
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeNoMethod, Message: "baton does not offer " + method}
	}
	var ref sessionRef
	if err := decode(params, &ref); err != nil {
		return nil, nil, err
	}
	ss, err := srv.session(ref.SessionID)
	if err != nil {
		return nil, nil, err
	}
	return answer(ss, ctx, params)
}

// sessionMethod answers a request about one open session.
func sessionMethod(method string) (func(ss *session, ctx context.Context, params json.RawMessage) (any, func(), error), bool) {
	switch method {
	case "session/prompt":
		return (*session).prompt, true
	case "session/set_mode":
		return func(ss *session, _ context.Context, params json.RawMessage) (any, func(), error) {
			return ss.setMode(params)
		}, true
	case "session/set_config_option":
		return func(ss *session, _ context.Context, params json.RawMessage) (any, func(), error) {
			return ss.setConfigOption(params)
		}, true
	}
	return nil, false
}

// Notification implements jsonrpc.Handler.
func (srv *Server) Notification(method string, params json.RawMessage) {
	if method != "session/cancel" {
		return
	}
	var ref sessionRef
	if decode(params, &ref) != nil {
		return
	}
	if ss, err := srv.session(ref.SessionID); err == nil {
		ss.cancel()
	}
}

// initialize says what baton offers and notes what the client does.
func (srv *Server) initialize(params json.RawMessage) (any, func(), error) {
	var req initializeRequest
	if err := decode(params, &req); err != nil {
		return nil, nil, err
	}
	srv.mu.Lock()
	srv.caps = req.ClientCapabilities
	srv.mu.Unlock()
	var caps agentCapabilities
	caps.LoadSession = true
	caps.PromptCapabilities.EmbeddedContext = true
	caps.MCPCapabilities.HTTP, caps.MCPCapabilities.SSE = true, true
	caps.SessionCapabilities.Close = &struct{}{}
	if srv.opts.List != nil {
		caps.SessionCapabilities.List = &struct{}{}
	}
	return initializeResponse{
		ProtocolVersion:   ProtocolVersion,
		AgentCapabilities: caps,
		AuthMethods:       []struct{}{},
		AgentInfo:         implementation{Name: "baton", Title: "baton", Version: srv.opts.Version},
	}, nil, nil
}

// newSession starts a session in the client's folder.
func (srv *Server) newSession(params json.RawMessage) (any, func(), error) {
	var req newSessionRequest
	if err := decode(params, &req); err != nil {
		return nil, nil, err
	}
	ss, err := srv.open(req.Cwd, "", req.MCPServers)
	if err != nil {
		return nil, nil, err
	}
	setup := ss.setup()
	setup.SessionID = ss.id
	return setup, ss.started, nil
}

// loadSession opens one of baton's sessions again and replays it to the
// client before answering, as ACP asks.
func (srv *Server) loadSession(params json.RawMessage) (any, func(), error) {
	var req loadSessionRequest
	if err := decode(params, &req); err != nil {
		return nil, nil, err
	}
	if req.SessionID == "" {
		return nil, nil, jsonrpc.InvalidParams("session/load: sessionId is empty")
	}
	if _, err := srv.session(req.SessionID); err == nil {
		return nil, nil, jsonrpc.InvalidParams("session %s is already open on this connection", req.SessionID)
	}
	ss, err := srv.open(req.Cwd, req.SessionID, req.MCPServers)
	if err != nil {
		return nil, nil, err
	}
	ss.replay()
	return ss.setup(), ss.started, nil
}

// open starts a baton session through Options.Open and begins passing
// its events on.
func (srv *Server) open(cwd, id string, servers []mcpServer) (*session, error) {
	if !filepath.IsAbs(cwd) {
		return nil, jsonrpc.InvalidParams("cwd must be an absolute path, got %q", cwd)
	}
	mcpServers, notes := clientServers(servers)
	srv.mu.Lock()
	caps := srv.caps
	srv.mu.Unlock()
	ss := newSession(srv, caps)
	// The session outlives this request: it lives as long as the
	// connection, or until the client closes it.
	opened, err := srv.opts.Open(srv.ctx, OpenRequest{Workspace: filepath.Clean(cwd), SessionID: id, MCPServers: mcpServers, Editor: ss.editor()})
	if err != nil {
		if id != "" {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeNotFound, Message: err.Error()}
		}
		return nil, err
	}
	opened.Notices = append(notes, opened.Notices...)
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.ctx.Err() != nil {
		opened.Close()
		return nil, errors.New("the connection is closing")
	}
	ss.start(opened)
	srv.sessions[ss.id] = ss
	return ss, nil
}

// list answers session/list.
func (srv *Server) list(params json.RawMessage) (any, func(), error) {
	if srv.opts.List == nil {
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeNoMethod, Message: "baton does not offer session/list here"}
	}
	var req listSessionsRequest
	if err := decode(params, &req); err != nil {
		return nil, nil, err
	}
	found, err := srv.opts.List(req.Cwd)
	if err != nil {
		return nil, nil, err
	}
	out := listSessionsResponse{Sessions: []sessionInfo{}}
	for _, l := range found {
		info := sessionInfo{SessionID: l.ID, Cwd: l.Workspace, Title: l.Title}
		if !l.LastActive.IsZero() {
			info.UpdatedAt = l.LastActive.UTC().Format(time.RFC3339)
		}
		if info.Cwd == "" {
			info.Cwd = req.Cwd
		}
		if filepath.IsAbs(info.Cwd) {
			out.Sessions = append(out.Sessions, info)
		}
	}
	return out, nil, nil
}

// closeSession ends a session the client is done with.
func (srv *Server) closeSession(params json.RawMessage) (any, func(), error) {
	var ref sessionRef
	if err := decode(params, &ref); err != nil {
		return nil, nil, err
	}
	srv.mu.Lock()
	ss, ok := srv.sessions[ref.SessionID]
	delete(srv.sessions, ref.SessionID)
	srv.mu.Unlock()
	if !ok {
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeNotFound, Message: "no session " + ref.SessionID}
	}
	ss.close()
	return struct{}{}, nil, nil
}

// session finds an open session.
func (srv *Server) session(id string) (*session, error) {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	ss, ok := srv.sessions[id]
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeNotFound, Message: fmt.Sprintf("no session %q on this connection", id)}
	}
	return ss, nil
}

// clientServers turns the client's MCP servers into baton's, under names
// baton's tool names accept; a server that cannot be used is left out
// with a note.
func clientServers(in []mcpServer) ([]mcp.Server, []string) {
	var out []mcp.Server
	var notes []string
	for _, s := range in {
		srv := mcp.Server{Name: toolSafeName(s.Name), Command: s.Command, Args: s.Args, URL: s.URL, SSE: s.Type == "sse", Source: "the editor"}
		if len(s.Env) > 0 {
			srv.Env = map[string]string{}
			for _, e := range s.Env {
				srv.Env[e.Name] = e.Value
			}
		}
		if len(s.Headers) > 0 {
			srv.Headers = map[string]string{}
			for _, h := range s.Headers {
				srv.Headers[h.Name] = h.Value
			}
		}
		if err := srv.Check(); err != nil {
			notes = append(notes, fmt.Sprintf("the editor's MCP server %q is left out: %v", s.Name, err))
			continue
		}
		if slices.ContainsFunc(out, func(o mcp.Server) bool { return o.Name == srv.Name }) {
			notes = append(notes, fmt.Sprintf("the editor's MCP server %q is left out: another has the name %s", s.Name, srv.Name))
			continue
		}
		out = append(out, srv)
	}
	return out, notes
}

// toolSafeName makes a server name usable in mcp__NAME__tool: letters,
// digits, '-' and single '_'.
func toolSafeName(name string) string {
	out := make([]rune, 0, len(name))
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-':
		case r == '_' && (len(out) == 0 || out[len(out)-1] != '_'):
		default:
			r = '-'
		}
		out = append(out, r)
	}
	return string(out)
}

// decode reads params into v; what does not fit is invalid params.
func decode(params json.RawMessage, v any) error {
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	if err := json.Unmarshal(params, v); err != nil {
		return jsonrpc.InvalidParams("invalid params: %v", err)
	}
	return nil
}
