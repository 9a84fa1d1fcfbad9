// Package demo is baton's offline demo: a scripted model served over
// loopback, so a newcomer with no API key sees the whole experience on a
// fresh machine. It speaks the OpenAI chat-completions streaming protocol,
// and the engine reaches it through the same client as a real provider.
// Given any prompt, it delegates three read-only children in parallel that
// really list, search and read the workspace, then sums up what they found.
//
// The script is stateless: every reply is decided from the request alone,
// so children running in parallel need no coordination.
package demo

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// Model is the name the demo model answers to; any other name is accepted
// too, so a configured BATON_MODEL does not break the demo.
const Model = "baton-demo"

// DefaultChunkDelay paces streamed chunks so the TUI's panes visibly
// stream for a few seconds, while a whole reply stays under about four.
const DefaultChunkDelay = 45 * time.Millisecond

// Options tune the demo server.
type Options struct {
	// ChunkDelay is the pause before each streamed chunk; zero streams
	// without pauses (tests).
	ChunkDelay time.Duration
}

// Server is a running demo model.
type Server struct {
	// URL is the base URL ending in /v1, as llm.Config.BaseURL takes it.
	URL string

	opts    Options
	srv     *http.Server
	ctx     context.Context // request contexts derive from it
	cancel  context.CancelFunc
	served  chan struct{} // closed when Serve returns
	unwatch func() bool   // stops closing on the caller's context
	// serveErr is why Serve stopped, if not Close; read after served.
	serveErr error

	mu       sync.Mutex
	closed   bool
	handlers sync.WaitGroup

	once     sync.Once
	closeErr error
}

// Start serves the demo model on 127.0.0.1 with the default pacing until
// ctx ends or Close is called.
func Start(ctx context.Context) (*Server, error) {
	return StartWith(ctx, Options{ChunkDelay: DefaultChunkDelay})
}

// StartWith is Start with options.
func StartWith(ctx context.Context, opts Options) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("start demo model: %w", err)
	}
	s := &Server{URL: "http://" + ln.Addr().String() + "/v1", opts: opts, served: make(chan struct{})}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.srv = &http.Server{
		Handler:           http.HandlerFunc(s.serveHTTP),
		BaseContext:       func(net.Listener) context.Context { return s.ctx },
		ReadHeaderTimeout: 10 * time.Second,
	}
	// The serve goroutine ends when Close closes the server; Close waits
	// for it.
	go func() {
		defer close(s.served)
		if err := s.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			s.serveErr = err
		}
	}()
	s.unwatch = context.AfterFunc(ctx, func() { _ = s.Close() })
	return s, nil
}

// Close stops the server: it ends every streaming reply, closes the
// connections and waits for the handlers and the serve goroutine to
// return. Calling it again returns the first result.
func (s *Server) Close() error {
	s.once.Do(func() {
		s.unwatch()
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		s.cancel()
		closeErr := s.srv.Close()
		s.handlers.Wait()
		<-s.served
		if err := errors.Join(s.serveErr, closeErr); err != nil {
			s.closeErr = fmt.Errorf("close demo model: %w", err)
		}
	})
	return s.closeErr
}

// enter registers a handler, or reports that the server is closing.
func (s *Server) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.handlers.Add(1)
	return true
}

// serveHTTP answers POST /v1/chat/completions; anything else is an error
// in the shape OpenAI uses, so the client explains it.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.enter() {
		writeError(w, http.StatusServiceUnavailable, "the demo model is shutting down")
		return
	}
	defer s.handlers.Done()
	if r.URL.Path != "/v1/chat/completions" {
		writeError(w, http.StatusNotFound, "the demo model serves only POST /v1/chat/completions")
		return
	}
	if r.Method != http.MethodPost {
		writeError(w, http.StatusMethodNotAllowed, "the demo model serves only POST /v1/chat/completions")
		return
	}
	req, raw, err := decodeRequest(w, r)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if !req.Stream {
		writeError(w, http.StatusBadRequest, `the demo model only streams; send "stream": true`)
		return
	}
	out := respond(req)
	st := newStream(r.Context(), w, req.Model, s.opts.ChunkDelay)
	// An error here means the client went away or the server is closing:
	// there is nobody left to tell, and the cut stream tells the client.
	_ = st.reply(out, usageFor(len(raw), out), req.StreamOptions != nil && req.StreamOptions.IncludeUsage)
}
