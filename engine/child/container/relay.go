package container

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// relayDialTimeout bounds connecting to the endpoint for the child.
const relayDialTimeout = 30 * time.Second

// relay forwards each connection made to its Unix socket to the model
// endpoint, byte for byte (TLS runs through it end to end): the only way
// out of a container without a network, and only to that address.
type relay struct {
	dir    string
	ln     net.Listener
	target string
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// socketName is the relay's socket in its folder.
const socketName = "endpoint.sock"

// newRelay listens on a socket in a new private folder and forwards to
// the host and port of baseURL.
func newRelay(baseURL string) (*relay, error) {
	target, err := hostPort(baseURL)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "baton-relay-")
	if err != nil {
		return nil, fmt.Errorf("make the endpoint relay: %w", err)
	}
	ln, err := net.Listen("unix", filepath.Join(dir, socketName))
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("make the endpoint relay: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &relay{dir: dir, ln: ln, target: target, cancel: cancel}
	r.wg.Add(1)
	// Ends when the listener is closed (close).
	go func() {
		defer r.wg.Done()
		r.serve(ctx)
	}()
	return r, nil
}

// hostPort is the address of an endpoint's base URL.
func hostPort(baseURL string) (string, error) {
	if baseURL == "" {
		baseURL = "https://api.openai.com/v1"
	}
	u, err := url.Parse(baseURL)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("the endpoint %q has no host a container could be relayed to", baseURL)
	}
	if u.Port() != "" {
		return u.Host, nil
	}
	port := "443"
	if u.Scheme == "http" {
		port = "80"
	}
	return net.JoinHostPort(u.Hostname(), port), nil
}

// serve accepts connections until the listener closes.
func (r *relay) serve(ctx context.Context) {
	for {
		conn, err := r.ln.Accept()
		if err != nil {
			return
		}
		r.wg.Add(1)
		// Ends when either side closes, or the relay does.
		go func() {
			defer r.wg.Done()
			r.forward(ctx, conn)
		}()
	}
}

// forward copies between one connection from the child and a new one to
// the endpoint.
func (r *relay) forward(ctx context.Context, in net.Conn) {
	defer in.Close()
	d := net.Dialer{Timeout: relayDialTimeout}
	out, err := d.DialContext(ctx, "tcp", r.target)
	if err != nil {
		return
	}
	defer out.Close()
	stop := context.AfterFunc(ctx, func() { in.Close(); out.Close() })
	defer stop()
	done := make(chan struct{})
	// Ends when the child's side ends or the endpoint's connection closes.
	go func() {
		defer close(done)
		_, _ = io.Copy(out, in)
		if cw, ok := out.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		}
	}()
	_, _ = io.Copy(in, out)
	in.Close()
	<-done
}

// close stops the relay, ends its connections and removes its folder.
func (r *relay) close() error {
	err := r.ln.Close()
	r.cancel()
	r.wg.Wait()
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return errors.Join(err, os.RemoveAll(r.dir))
}
