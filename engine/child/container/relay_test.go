package container

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHostPort(t *testing.T) {
	for in, want := range map[string]string{
		"":                              "api.openai.com:443",
		"https://api.example.com/v1":    "api.example.com:443",
		"http://localhost/v1":           "localhost:80",
		"http://127.0.0.1:8080/v1":      "127.0.0.1:8080",
		"https://[2001:db8::1]/v1":      "[2001:db8::1]:443",
		"https://[2001:db8::1]:8443/v1": "[2001:db8::1]:8443",
	} {
		if got, err := hostPort(in); err != nil || got != want {
			t.Errorf("hostPort(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"/v1", "::", "unix:///run/x.sock"} {
		if _, err := hostPort(bad); err == nil || !strings.Contains(err.Error(), "no host") {
			t.Errorf("hostPort(%q) = %v", bad, err)
		}
	}
}

// dialRelay connects to the relay's socket as the child would.
func dialRelay(t *testing.T, r *relay) net.Conn {
	t.Helper()
	conn, err := net.Dial("unix", filepath.Join(r.dir, socketName))
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

// The relay carries a child's connection to the endpoint byte for byte,
// both ways, and one connection's end does not end the relay.
func TestRelayForwardsToTheEndpoint(t *testing.T) {
	t.Setenv("TMPDIR", shortDir(t))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		_, _ = io.WriteString(w, r.Method+" "+r.URL.Path+" "+string(body))
	}))
	defer srv.Close()
	r, err := newRelay(srv.URL + "/v1")
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(r.dir)
	if err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("the relay's folder must be private: %v %v", info.Mode(), err)
	}
	var d net.Dialer
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return d.DialContext(ctx, "unix", filepath.Join(r.dir, socketName))
	}, DisableKeepAlives: true}}
	for range 2 {
		resp, err := client.Post("http://endpoint/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m"}`))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if string(got) != `POST /v1/chat/completions {"model":"m"}` {
			t.Fatalf("through the relay: %q", got)
		}
	}
	if err := r.close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if _, err := os.Stat(r.dir); !os.IsNotExist(err) {
		t.Fatalf("the relay's folder is left: %v", err)
	}
	if _, err := net.Dial("unix", filepath.Join(r.dir, socketName)); err == nil {
		t.Fatal("a closed relay still accepts")
	}
}

// Closing the relay ends the connections still open through it, and a
// connection to an endpoint that refuses is closed, not left hanging.
func TestRelayEndsItsConnections(t *testing.T) {
	t.Setenv("TMPDIR", shortDir(t))
	endpoint, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan net.Conn, 1)
	go func() { // ends when the listener closes below
		conn, err := endpoint.Accept()
		if err == nil {
			accepted <- conn
		}
		close(accepted)
	}()
	r, err := newRelay("http://" + endpoint.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	conn := dialRelay(t, r)
	defer conn.Close()
	if _, err := io.WriteString(conn, "hello"); err != nil {
		t.Fatal(err)
	}
	far := <-accepted
	defer far.Close()
	got := make([]byte, 5)
	if _, err := io.ReadFull(far, got); err != nil || string(got) != "hello" {
		t.Fatalf("endpoint read %q, %v", got, err)
	}
	if err := r.close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if n, err := conn.Read(make([]byte, 1)); n != 0 || err == nil {
		t.Fatalf("a child's connection outlived the relay: %d %v", n, err)
	}
	_ = endpoint.Close()

	// An endpoint nobody listens on: the child's connection is closed.
	r, err = newRelay("http://" + endpoint.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = r.close() }()
	conn = dialRelay(t, r)
	defer conn.Close()
	if line, err := bufio.NewReader(conn).ReadString('\n'); err != io.EOF || line != "" {
		t.Fatalf("a refused endpoint: %q %v", line, err)
	}
}
