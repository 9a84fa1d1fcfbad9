package tools

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
)

// fetch runs web_fetch with the given tool and URL.
func fetch(t *testing.T, tool Tool, args map[string]any) (Result, error) {
	t.Helper()
	raw, _ := json.Marshal(args)
	return tool.Run(context.Background(), raw)
}

// serveOn starts h on a loopback address such as 127.0.0.2.
func serveOn(t *testing.T, addr string, h http.Handler) *httptest.Server {
	t.Helper()
	l, err := net.Listen("tcp", addr+":0")
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

func TestWebFetchConvertsHTML(t *testing.T) {
	var headers atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		headers.Store(r.Header.Clone())
		switch r.URL.Path {
		case "/page":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(`<html><head><title>T</title><script>alert(1)</script><style>p{}</style></head>` +
				`<body><h1>Install</h1><p>Run <code>go get</code> then <a href="/docs">read the docs</a>.</p><ul><li>one</li><li>two</li></ul></body></html>`))
		case "/plain":
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte("just text"))
		case "/moved":
			http.Redirect(w, r, "/plain", http.StatusFound)
		case "/bin":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Write([]byte{0, 1, 2})
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	tool := NewWebFetch(WebFetchOptions{AllowPrivate: true}, Limits{})
	res, err := fetch(t, tool, map[string]any{"url": srv.URL + "/page", "prompt": "how to install"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Install", "Run `go get` then [read the docs](" + srv.URL + "/docs).", "- one\n- two", "Prompt: how to install", "Content-Type: text/html"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("output lacks %q:\n%s", want, res.Output)
		}
	}
	if strings.Contains(res.Output, "alert") || strings.Contains(res.Output, "p{}") {
		t.Errorf("script or style leaked:\n%s", res.Output)
	}
	h := headers.Load().(http.Header)
	if h.Get("Authorization") != "" || h.Get("Cookie") != "" || h.Get("User-Agent") == "" {
		t.Errorf("request headers: %v", h)
	}
	res, err = fetch(t, tool, map[string]any{"url": srv.URL + "/page", "format": "text"})
	if err != nil || !strings.Contains(res.Output, "then read the docs.") {
		t.Errorf("text format: %v\n%s", err, res.Output)
	}
	res, err = fetch(t, tool, map[string]any{"url": srv.URL + "/moved"})
	if err != nil || !strings.Contains(res.Output, "URL: "+srv.URL+"/plain") || !strings.HasSuffix(res.Output, "\njust text") {
		t.Errorf("redirect: %v\n%s", err, res.Output)
	}
	if _, err := fetch(t, tool, map[string]any{"url": srv.URL + "/bin"}); err == nil || !strings.Contains(err.Error(), "application/octet-stream, not text") {
		t.Errorf("binary: %v", err)
	}
	if _, err := fetch(t, tool, map[string]any{"url": srv.URL + "/nothing"}); err == nil || !strings.Contains(err.Error(), "404 Not Found") {
		t.Errorf("404: %v", err)
	}
}

func TestWebFetchRefusesLoopbackByDefault(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	tool := NewWebFetch(WebFetchOptions{}, Limits{})
	port := srv.URL[strings.LastIndex(srv.URL, ":"):]
	// By address, by a name that resolves to it, and spelled as IPv4-mapped IPv6.
	for _, u := range []string{srv.URL, "http://localhost" + port, "http://[::ffff:127.0.0.1]" + port} {
		_, err := fetch(t, tool, map[string]any{"url": u})
		if err == nil || !strings.Contains(err.Error(), "web_fetch refuses") || !strings.Contains(err.Error(), "allow_private") {
			t.Errorf("%s: err = %v, want a refusal", u, err)
		}
	}
	if hits.Load() != 0 {
		t.Fatalf("the loopback server was reached %d times", hits.Load())
	}
}

// TestWebFetchRefusesIPv6SpellingsOfLoopback: a URL that spells the
// loopback server's IPv4 address inside an IPv6 one (IPv4-compatible,
// SIIT, NAT64, 6to4, ISATAP) is refused by the guard itself, before any
// connection, not left to whether this machine routes it.
func TestWebFetchRefusesIPv6SpellingsOfLoopback(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	tool := NewWebFetch(WebFetchOptions{}, Limits{})
	port := srv.URL[strings.LastIndex(srv.URL, ":"):]
	for _, host := range []string{"[::127.0.0.1]", "[::7f00:1]", "[::ffff:0:127.0.0.1]", "[64:ff9b::127.0.0.1]",
		"[64:ff9b:1::7f00:1]", "[2002:7f00:1::1]", "[2001:db8::5efe:127.0.0.1]", "[::ffff:7f00:1]"} {
		_, err := fetch(t, tool, map[string]any{"url": "http://" + host + port + "/"})
		if err == nil || !strings.Contains(err.Error(), "web_fetch refuses") {
			t.Errorf("%s: err = %v, want the guard's refusal", host, err)
		}
	}
	if hits.Load() != 0 {
		t.Fatalf("the loopback server was reached %d times", hits.Load())
	}
}

// TestWebFetchStopsAtAnotherHost is the attack on a host rule and on the
// network guard: a host the rules allow (web_fetch(domain:…)) redirects
// to another, here a loopback server. The redirect is not followed: the
// model is told where it leads and must fetch that URL in a call of its
// own, which the rules and the guard decide. A redirect on the same host
// is followed.
func TestWebFetchStopsAtAnotherHost(t *testing.T) {
	var hits atomic.Int32
	inside := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1); w.Write([]byte("secret")) }))
	defer inside.Close()
	// The outside server lives on 127.0.0.2, the one address this tool is
	// let through to: it stands for a public host that redirects inward.
	outside := serveOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/self" {
			http.Redirect(w, r, "/ok", http.StatusFound)
			return
		}
		if r.URL.Path == "/ok" {
			w.Write([]byte("fine"))
			return
		}
		http.Redirect(w, r, inside.URL+"/admin", http.StatusFound)
	}))
	tool := webFetch{guard: fetchGuard{exempt: netip.MustParsePrefix("127.0.0.2/32")}, lim: DefaultLimits()}
	if res, err := fetch(t, tool, map[string]any{"url": outside.URL + "/self"}); err != nil || !strings.HasSuffix(res.Output, "fine") {
		t.Fatalf("the exempt server itself: %v", err)
	}
	res, err := fetch(t, tool, map[string]any{"url": outside.URL + "/go"})
	if err != nil || !strings.Contains(res.Output, "Redirect: 302 Found "+inside.URL+"/admin") ||
		!strings.Contains(res.Output, "call web_fetch with that URL") || res.Summary != "redirects to 127.0.0.1" {
		t.Fatalf("result %+v, err %v: want the redirect reported, not followed", res, err)
	}
	if _, err := fetch(t, tool, map[string]any{"url": inside.URL + "/admin"}); err == nil || !strings.Contains(err.Error(), "web_fetch refuses 127.0.0.1") {
		t.Fatalf("err = %v, want the loopback server refused when asked for", err)
	}
	if hits.Load() != 0 {
		t.Fatal("the redirect reached the loopback server")
	}
}

func TestWebFetchBounds(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			w.Header().Set("Content-Type", "text/plain")
			chunk := []byte(strings.Repeat("x", 1<<20))
			for range 8 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/file":
			w.Header().Set("Location", "file:///etc/passwd")
			w.WriteHeader(http.StatusFound)
		}
	}))
	defer srv.Close()
	tool := NewWebFetch(WebFetchOptions{AllowPrivate: true}, Limits{OutputChars: 1000})
	res, err := fetch(t, tool, map[string]any{"url": srv.URL + "/big"})
	if err != nil || !strings.Contains(res.Output, "Note: the body was cut at 5 MiB") || !strings.Contains(res.Output, "[truncated:") {
		t.Fatalf("big body: %v\n%.300s", err, res.Output)
	}
	if _, err := fetch(t, tool, map[string]any{"url": srv.URL + "/loop"}); err == nil || !strings.Contains(err.Error(), "more than 5 redirects") {
		t.Errorf("redirect loop: %v", err)
	}
	if _, err := fetch(t, tool, map[string]any{"url": srv.URL + "/file"}); err == nil || !strings.Contains(err.Error(), "only http and https") {
		t.Errorf("redirect to file: %v", err)
	}
	for _, bad := range []string{"file:///etc/passwd", "ftp://example.com/", "example.com", "http://user:pw@example.com/", "http:///x"} {
		if _, err := fetch(t, tool, map[string]any{"url": bad}); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
	if _, err := fetch(t, tool, map[string]any{"url": srv.URL, "format": "pdf"}); err == nil || !strings.Contains(err.Error(), "format") {
		t.Errorf("bad format: %v", err)
	}
	if tool.ReadOnly() {
		t.Error("web_fetch reaches the network and must ask")
	}
}

func TestPrivateAddr(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1": true, "10.1.2.3": true, "172.16.0.1": true, "192.168.1.1": true, "169.254.169.254": true,
		"100.64.0.1": true, "224.0.0.1": true, "0.0.0.0": true, "255.255.255.255": true, "::1": true, "::": true,
		"fc00::1": true, "fd12::1": true, "fe80::1": true, "ff02::1": true, "::ffff:10.0.0.1": true,
		"64:ff9b::a00:1": true, "2002:7f00:1::": true,
		// Every IPv6 spelling of an IPv4 loopback or private address.
		"::127.0.0.1": true, "::7f00:1": true, "::10.0.0.1": true, "::ffff:0:127.0.0.1": true, "::ffff:0:8.8.8.8": true,
		"64:ff9b::127.0.0.1": true, "64:ff9b:1::7f00:1": true, "64:ff9b:1::808:808": true, "2002:a00:1::1": true,
		"2001:db8::5efe:127.0.0.1": true, "2606:4700::200:5efe:10.1.2.3": true, "2001::1": true, "2001:db8::1": true,
		"100::1": true, "::ffff:127.0.0.1%eth0": true,
		"8.8.8.8": false, "1.1.1.1": false, "2606:4700:4700::1111": false, "64:ff9b::808:808": false,
		"2002:808:808::1": false, "2606:4700::5efe:808:808": false, "2a00:1450:4001:80b::200e": false,
	} {
		if got := privateAddr(netip.MustParseAddr(addr)); got != want {
			t.Errorf("privateAddr(%s) = %v, want %v", addr, got, want)
		}
	}
}
