package container

import (
	"context"
	"errors"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// TestEngineAddress reads unix:// and tcp:// addresses and refuses the
// others by name.
func TestEngineAddress(t *testing.T) {
	for _, ok := range []string{"unix:///run/podman/podman.sock", "tcp://127.0.0.1:2375"} {
		if _, err := newEngine(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"ssh://me@host", "npipe:////./pipe/docker_engine", "unix://", "tcp://", "tcp://10.0.0.1:2375", "tcp://engine.example:2375"} {
		if _, err := newEngine(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	t.Setenv("DOCKER_HOST", "tcp://[::1]:2375")
	if e, err := newEngine(""); err != nil || e.host != "tcp://[::1]:2375" {
		t.Fatalf("DOCKER_HOST not used: %+v %v", e, err)
	}
}

// TestEngineErrors: an engine that is not there is named by address, an
// image the engine does not have is a not-found error carrying the
// engine's message, and a reply larger than the bound is cut, not read
// whole.
func TestEngineErrors(t *testing.T) {
	gone := "unix://" + filepath.Join(t.TempDir(), "none.sock")
	e, err := newEngine(gone)
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.create(context.Background(), createBody{Image: "x"})
	var u *unreachableError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), gone) {
		t.Fatalf("create on a missing engine: %v", err)
	}

	sock := filepath.Join(t.TempDir(), "engine.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/containers/create"):
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"message":"no such image: x"}`))
		default:
			_, _ = w.Write([]byte(`{"StatusCode":` + strings.Repeat("1", 2<<20) + `}`))
		}
	})}
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve(ln) }()
	defer func() { _ = srv.Close(); <-done }()
	e, err = newEngine("unix://" + sock)
	if err != nil {
		t.Fatal(err)
	}
	defer e.close()
	if _, err := e.create(context.Background(), createBody{Image: "x"}); !notFound(err) || !strings.Contains(err.Error(), "no such image: x") {
		t.Fatalf("create of a missing image: %v", err)
	}
	if _, err := e.wait(context.Background(), "c"); err == nil {
		t.Fatal("a reply over the bound was read")
	}
}
