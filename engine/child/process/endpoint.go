package process

import (
	"context"
	"net"
	"net/http"

	"github.com/seed-e4e525a6/baton/engine/llm"
	"github.com/seed-e4e525a6/baton/engine/rawio"
)

// config is the client configuration of a child's loop: the endpoint
// directly, or through the socket baton relays when the child has no
// network of its own.
func (e endpoint) config() llm.Config {
	cfg := llm.Config{APIKey: e.APIKey, BaseURL: e.BaseURL, Timeouts: e.Timeouts}
	if e.Socket != "" {
		socket := e.Socket
		dialer := &net.Dialer{Timeout: e.Timeouts.Connect}
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.Proxy = nil
		// Every connection, whatever address it is for, is a connection
		// to the endpoint through baton's relay; TLS, when the endpoint
		// speaks it, runs through it end to end. Its reads are raw, as
		// the default transport's are (see rawio.Conn).
		t.DialContext = func(ctx context.Context, _, _ string) (net.Conn, error) {
			c, err := dialer.DialContext(ctx, "unix", socket)
			if err != nil {
				return nil, err
			}
			return rawio.Conn(c), nil
		}
		cfg.HTTPClient = &http.Client{Transport: t}
	}
	return cfg
}
