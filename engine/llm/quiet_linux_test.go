package llm

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/rawio"
)

// lowWater reads the socket's SO_RCVLOWAT.
func lowWater(t *testing.T, conn net.Conn) int {
	t.Helper()
	sc, ok := conn.(syscall.Conn)
	if !ok {
		t.Fatalf("no socket under %T", conn)
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if cerr := raw.Control(func(fd uintptr) { n, err = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVLOWAT) }); cerr != nil {
		t.Fatal(cerr)
	}
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// probeClock is a fake clock that reads the socket's low-water mark
// while the body sleeps.
type probeClock struct {
	fakeClock
	t        *testing.T
	conn     net.Conn
	sleeping []int
}

func (c *probeClock) sleep(ctx context.Context, end time.Time) {
	c.sleeping = append(c.sleeping, lowWater(c.t, c.conn))
	c.fakeClock.sleep(ctx, end)
}

// loopback returns both ends of a real TCP connection.
func loopback(t *testing.T) (client, server net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server = <-accepted
	if server == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { client.Close(); server.Close() })
	return client, server
}

// While a fast stream sleeps to its window's end, its socket wakes
// nobody until a buffer's worth has arrived, and the chunks that came
// meanwhile are read in one go. The mark stays for the next window (a
// read returns what has arrived whatever the mark), and a read that has
// to wait lowers it first, so it gets the next byte as soon as it comes.
func TestGatherSleepKeepsTheSocketQuiet(t *testing.T) {
	tcp, server := loopback(t)
	client := rawio.Conn(tcp)
	if got := lowWater(t, client); got != 1 {
		t.Fatalf("a fresh socket's low-water mark is %d, want 1", got)
	}
	clock := &probeClock{fakeClock: fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 5e6, time.UTC)}, t: t, conn: client}
	b := &gatheringBody{rc: client, ctx: context.Background(), gather: Gather{Most: 32 * time.Millisecond}, clock: clock, conn: client}
	b.began, b.fast = clock.now().Add(-time.Second), true
	if _, err := io.WriteString(server, "data: one\n\ndata: two\n\n"); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	got := ""
	for len(got) < len("data: one\n\ndata: two\n\n") {
		n, err := b.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		got += string(buf[:n])
	}
	if len(clock.sleeping) == 0 || clock.sleeping[0] != len(buf) {
		t.Fatalf("low-water marks while sleeping: %v, want %d", clock.sleeping, len(buf))
	}
	if after := lowWater(t, client); after != len(buf) {
		t.Fatalf("after a read that found data the low-water mark is %d, want it kept at %d", after, len(buf))
	}
	// A read that has to wait gets the next byte as soon as it comes.
	b.fast = false
	done := make(chan string)
	go func() {
		n, _ := b.Read(buf)
		done <- string(buf[:n])
	}()
	// The read lowers the mark once it finds nothing, before it waits.
	for lowWater(t, client) != 1 {
		runtime.Gosched()
	}
	if _, err := io.WriteString(server, "x"); err != nil {
		t.Fatal(err)
	}
	if s := <-done; s != "x" {
		t.Fatalf("waiting read got %q, want %q", s, "x")
	}
}

// A gathering stream over HTTP/1 knows the connection it arrives on, so
// it can hold it quiet.
func TestGatheringStreamHoldsItsConnection(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()
	tr := &sseTransport{base: defaultTransport(time.Second), timeouts: Timeouts{}.withDefaults()}
	ctx, m := withMarker(context.Background(), 1<<20)
	m.gather = Gather{Most: 32 * time.Millisecond}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	gb, ok := resp.Body.(*sseBody).rc.(*gatheringBody)
	if !ok || gb.conn == nil {
		t.Fatalf("the gathering body has no connection: %#v", resp.Body.(*sseBody).rc)
	}
	if !rawio.Quiet(gb.conn, 2048) {
		t.Fatal("the stream's connection cannot be held quiet: its reads are not raw (see rawReads)")
	}
	_, _ = io.Copy(io.Discard, resp.Body)
}
