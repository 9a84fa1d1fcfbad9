// Package llm is baton's seam to OpenAI-compatible chat endpoints: a
// go-openai client hardened for real providers, a stream accumulator that
// assembles one assistant message from whatever chunks a provider sends,
// provider errors explained for people, and a model catalogue for context
// windows and prices.
package llm

import (
	"context"
	"net"
	"net/http"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/rawio"
)

// Client is the one method the engine needs; *openai.Client satisfies it.
// Tests substitute a client pointed at an httptest server rather than a fake,
// so the real SSE reader is always exercised.
type Client interface {
	CreateChatCompletionStream(ctx context.Context, req openai.ChatCompletionRequest) (*openai.ChatCompletionStream, error)
}

// Config for NewClient.
type Config struct {
	APIKey  string
	BaseURL string
	// HTTPClient is optional; its Transport is wrapped, never modified.
	// Without one, the default transport is used with the connect timeout.
	HTTPClient *http.Client
	// Timeouts bound each request; zero fields take DefaultTimeouts.
	Timeouts Timeouts
}

// emptyMessagesLimit replaces go-openai's default of 300 non-data lines
// between two events. The transport already drops the lines providers send
// while a slow model thinks; this is insurance against ones it does not know.
const emptyMessagesLimit = 10000

// NewClient returns a go-openai client hardened for real providers. Its
// transport drops SSE comment and field lines (OpenRouter sends hundreds of
// ": OPENROUTER PROCESSING" keep-alives, which go-openai would count as empty
// messages and feed into its error accumulator), hands each data line to
// Stream in the one pass that reads it (go-openai's reader would read it
// again and match three regular expressions per line), so Stream parses
// every error shape in one place, and records whether "data: [DONE]" was
// seen so Stream can tell a finished stream from a cut one. It bounds every request Stream sends: the connect,
// first-byte and idle timeouts of cfg.Timeouts, line and error-body sizes. Base URLs are used as given: Ollama-style URLs
// without /v1 are the user's business.
func NewClient(cfg Config) *openai.Client {
	oc := openai.DefaultConfig(cfg.APIKey)
	if cfg.BaseURL != "" {
		oc.BaseURL = cfg.BaseURL
	}
	oc.EmptyMessagesLimit = emptyMessagesLimit
	hc := &http.Client{}
	if cfg.HTTPClient != nil {
		copied := *cfg.HTTPClient
		hc = &copied
	}
	timeouts := cfg.Timeouts.withDefaults()
	base := hc.Transport
	if base == nil {
		base = defaultTransport(timeouts.Connect)
	}
	hc.Transport = &sseTransport{base: base, timeouts: timeouts}
	oc.HTTPClient = hc
	return openai.NewClientWithConfig(oc)
}

// maxIdlePerHost is how many idle connections to the endpoint are kept
// for reuse: enough for every child of a full burst (32 at most), so the
// next burst connects anew only for what it adds.
const maxIdlePerHost = 64

// defaultTransport is http.DefaultTransport with the connect timeout, new
// connections spread out in time once the endpoint needs it (see
// pacedDial), reads that do not wake the runtime (see rawReads), a dial
// that makes its stack's room first (see roomyDial), and
// room to keep a burst's connections for the requests after it. One client, and so one
// transport, serves the main agent and all its children.
func defaultTransport(connect time.Duration) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = roomyDial(boundedDial(connect, pacedDial(dialSpacing, dialBurstSlow, rawReads((&net.Dialer{KeepAlive: 30 * time.Second}).DialContext))))
	t.MaxIdleConnsPerHost = maxIdlePerHost
	t.MaxIdleConns = max(t.MaxIdleConns, maxIdlePerHost)
	return t
}

// rawReads makes dial's connections read with raw system calls (see
// rawio.Conn): a stream is read in a short burst once a gathering window,
// and a read made the usual way woke the runtime's monitor thread for
// every burst. TLS, HTTP/2 and a proxy's tunnel are layered on top as on
// any connection.
func rawReads(dial dialFunc) dialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return rawio.Conn(c), nil
	}
}
