package container

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fakeEngine is an in-process stand-in for a container engine's API
// service, speaking the subset baton's client uses over a Unix socket:
// create, start, attach (a hijacked stream of stdcopy frames), wait,
// kill and remove. Its "container" answers each line of input with
// "out: <line>" on stdout and "err: <line>" on stderr, and exits with
// exitCode when its input ends. A test replaces any route to make the
// engine refuse, fail or send garbage. The real engine's tests
// (container_test.go) need Podman; these run everywhere.
type fakeEngine struct {
	t    *testing.T
	host string
	srv  *http.Server
	done chan struct{}

	// routes overrides the default answer of a call, keyed by "METHOD
	// /containers/create" or "METHOD /containers/{id}/start" and so on.
	routes map[string]http.HandlerFunc
	// exitCode is the status the container exits with.
	exitCode int

	mu      sync.Mutex
	calls   []string
	created []createBody
	exited  chan struct{} // closed when the container has exited
	status  int
	conns   []net.Conn
	wg      sync.WaitGroup
}

// newFakeEngine serves a fake engine until the test ends.
func newFakeEngine(t *testing.T) *fakeEngine {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "engine.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeEngine{t: t, host: "unix://" + sock, routes: map[string]http.HandlerFunc{}, done: make(chan struct{}), exited: make(chan struct{})}
	f.srv = &http.Server{Handler: http.HandlerFunc(f.serve)}
	// Ends when the server is closed at cleanup.
	go func() { defer close(f.done); _ = f.srv.Serve(ln) }()
	t.Cleanup(func() {
		_ = f.srv.Close()
		<-f.done
		f.mu.Lock()
		for _, c := range f.conns {
			_ = c.Close()
		}
		f.mu.Unlock()
		f.wg.Wait()
	})
	return f
}

// route names a request the way routes are keyed.
func route(r *http.Request) string {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/"+apiVersion), "/")
	if len(parts) > 2 && parts[1] == "containers" && parts[2] != "create" {
		parts[2] = "{id}"
	}
	return r.Method + " " + strings.Join(parts, "/")
}

// Calls lists the calls made so far, with their query.
func (f *fakeEngine) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func (f *fakeEngine) serve(w http.ResponseWriter, r *http.Request) {
	name := route(r)
	f.mu.Lock()
	call := name
	if r.URL.RawQuery != "" {
		call += "?" + r.URL.RawQuery
	}
	f.calls = append(f.calls, call)
	f.mu.Unlock()
	if h := f.routes[name]; h != nil {
		h(w, r)
		return
	}
	switch name {
	case "POST /containers/create":
		var body createBody
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, `{"message":"bad body"}`, http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		f.created = append(f.created, body)
		f.mu.Unlock()
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"Id":"c0ffee","Warnings":[]}`)
	case "POST /containers/{id}/start", "DELETE /containers/{id}":
		w.WriteHeader(http.StatusNoContent)
	case "POST /containers/{id}/kill":
		f.exit(137)
		w.WriteHeader(http.StatusNoContent)
	case "POST /containers/{id}/attach":
		f.attach(w)
	case "POST /containers/{id}/wait":
		select {
		case <-f.exited:
		case <-r.Context().Done():
			return
		}
		f.mu.Lock()
		status := f.status
		f.mu.Unlock()
		_ = json.NewEncoder(w).Encode(map[string]int{"StatusCode": status})
	default:
		http.Error(w, `{"message":"no route"}`, http.StatusNotFound)
	}
}

// exit marks the container exited with status, once, and ends its
// attachment.
func (f *fakeEngine) exit(status int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-f.exited:
		return
	default:
	}
	f.status = status
	close(f.exited)
	for _, c := range f.conns {
		_ = c.Close()
	}
}

// hijack takes the connection over after writing head.
func (f *fakeEngine) hijack(w http.ResponseWriter, head string) (net.Conn, *bufio.ReadWriter) {
	conn, rw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		f.t.Errorf("hijack: %v", err)
		return nil, nil
	}
	f.mu.Lock()
	f.conns = append(f.conns, conn)
	f.mu.Unlock()
	_, _ = rw.WriteString(head)
	_ = rw.Flush()
	return conn, rw
}

// attach is the container's standard streams: 101, then frames.
func (f *fakeEngine) attach(w http.ResponseWriter) {
	conn, rw := f.hijack(w, "HTTP/1.1 101 UPGRADED\r\nContent-Type: application/vnd.docker.multiplexed-stream\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\n")
	if conn == nil {
		return
	}
	f.wg.Add(1)
	// Ends when the input ends or the connection is closed.
	go func() {
		defer f.wg.Done()
		lines := bufio.NewScanner(rw)
		for lines.Scan() {
			_, _ = conn.Write(frame(1, "out: "+lines.Text()+"\n"))
			_, _ = conn.Write(frame(2, "err: "+lines.Text()+"\n"))
		}
		f.exit(f.exitCode)
	}()
}

// frame is one stdcopy frame of stream (1 stdout, 2 stderr).
func frame(stream byte, payload string) []byte {
	head := make([]byte, 8, 8+len(payload))
	head[0] = stream
	binary.BigEndian.PutUint32(head[4:], uint32(len(payload)))
	return append(head, payload...)
}

// answer is a route that replies status with body.
func answer(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}
