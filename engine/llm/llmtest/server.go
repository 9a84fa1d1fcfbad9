// Package llmtest is a scripted OpenAI-compatible server for tests across
// baton: a test writes a Responder that answers each chat request with SSE
// through a Writer, and drives the real go-openai client against it.
package llmtest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/llm"
)

// Responder answers one request. It runs on the server's goroutine for that
// request and may block, but must then also select on w.Context().Done(),
// which fires when the client goes away or the server closes.
type Responder func(req *Request, w *Writer)

// Server is an httptest server speaking the chat completions endpoint.
type Server struct {
	URL string // base URL ending in /v1, as OPENAI_BASE_URL takes it

	t       testing.TB
	srv     *httptest.Server
	respond Responder
	ctx     context.Context // cancelled on Close to release blocked responders
	cancel  context.CancelFunc
	once    sync.Once

	mu     sync.Mutex
	reqs   []*Request
	models []string // served by GET /v1/models when set
	listed int      // GET /v1/models requests so far
}

// ServeModels makes the server list ids at GET /v1/models, as most
// endpoints do; without it the list answers 404, as some do.
func (s *Server) ServeModels(ids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]string(nil), ids...)
}

// NewServer starts a server answering with respond; it closes on t.Cleanup.
func NewServer(t testing.TB, respond Responder) *Server {
	t.Helper()
	return NewServerOn(t, nil, respond)
}

// NewServerOn is NewServer listening through wrap, so a test can put a
// fault under HTTP (see ResetFirst); nil wrap listens plainly.
func NewServerOn(t testing.TB, wrap func(net.Listener) net.Listener, respond Responder) *Server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{t: t, respond: respond, ctx: ctx, cancel: cancel}
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	if wrap != nil {
		s.srv.Listener = wrap(s.srv.Listener)
	}
	s.srv.Start()
	s.URL = s.srv.URL + "/v1"
	t.Cleanup(s.Close)
	return s
}

// Close releases blocked responders and shuts the server down, waiting for
// every handler to return. Tests checking for leaked goroutines call it
// before the check; it is safe to call more than once.
func (s *Server) Close() {
	s.once.Do(func() {
		s.cancel()
		s.srv.Close()
	})
}

// Key is the API key the server's clients send.
const Key = "llmtest-key"

// Client returns llm.NewClient pointed at the server.
func (s *Server) Client() *openai.Client {
	return llm.NewClient(s.Endpoint())
}

// Endpoint is the configuration of a client pointed at the server, for
// a process that builds its own (a child on the process runner).
func (s *Server) Endpoint() llm.Config {
	return llm.Config{APIKey: Key, BaseURL: s.URL}
}

// ClientWith returns llm.NewClient pointed at the server with the given
// timeouts, for tests of hung endpoints that cannot wait minutes.
func (s *Server) ClientWith(timeouts llm.Timeouts) *openai.Client {
	return llm.NewClient(llm.Config{APIKey: Key, BaseURL: s.URL, Timeouts: timeouts})
}

// Requests returns every request received so far, in arrival order.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.reqs...)
}

// ModelListRequests is how many times the model list was asked for.
func (s *Server) ModelListRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.listed
}

// serve records the request and hands it to the responder.
func (s *Server) serve(rw http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && r.URL.Path == "/v1/models" {
		s.mu.Lock()
		s.listed++
		s.mu.Unlock()
		if s.serveModels(rw) {
			return
		}
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(rw, `{"error":{"message":"llmtest serves only POST /v1/chat/completions"}}`, http.StatusNotFound)
		return
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		// A client that gave up while sending (its context was
		// cancelled) is not a failure of the test.
		if r.Context().Err() == nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			s.t.Errorf("llmtest: read request body: %v", err)
		}
		return
	}
	req := &Request{Raw: raw, Header: r.Header.Clone()}
	if err := json.Unmarshal(raw, &req.Body); err != nil {
		s.t.Errorf("llmtest: decode request %s: %v", raw, err)
		http.Error(rw, `{"error":{"message":"llmtest: undecodable request"}}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	req.Index = len(s.reqs)
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()

	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(s.ctx, cancel)
	defer stop()
	s.respond(req, newWriter(s.t, rw, ctx))
}

// serveModels writes the model list, reporting false when none is set.
func (s *Server) serveModels(rw http.ResponseWriter) bool {
	s.mu.Lock()
	ids := s.models
	s.mu.Unlock()
	if ids == nil {
		return false
	}
	list := openai.ModelsList{}
	for _, id := range ids {
		list.Models = append(list.Models, openai.Model{ID: id, Object: "model"})
	}
	rw.Header().Set("Content-Type", "application/json")
	if err := json.NewEncoder(rw).Encode(list); err != nil {
		s.t.Errorf("llmtest: write model list: %v", err)
	}
	return true
}
