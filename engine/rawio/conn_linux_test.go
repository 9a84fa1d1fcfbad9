package rawio

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// loopback returns both ends of a real TCP connection, the client's
// reading raw.
func loopback(t *testing.T) (client net.Conn, tcp, server *net.TCPConn) {
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
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s := <-accepted
	if s == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { c.Close(); s.Close() })
	client = Conn(c)
	if _, ok := client.(*conn); !ok {
		t.Fatalf("a TCP connection is not read raw: %T", client)
	}
	return client, c.(*net.TCPConn), s.(*net.TCPConn)
}

// lowWater reads the socket's SO_RCVLOWAT.
func lowWater(t *testing.T, c *net.TCPConn) int {
	t.Helper()
	raw, err := c.SyscallConn()
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

// A raw read returns what has arrived, waits on the poller for what has
// not, and ends with io.EOF when the peer closes, as the socket's own.
func TestConnReadsWhatArrivesAndTheEnd(t *testing.T) {
	client, _, server := loopback(t)
	if _, err := server.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, err := client.Read(buf)
	if err != nil || string(buf[:n]) != "hello" {
		t.Fatalf("read %q, %v; want hello", buf[:n], err)
	}
	if n, err := client.Read(nil); n != 0 || err != nil {
		t.Fatalf("an empty read gave %d, %v; want 0, nil", n, err)
	}
	got := make(chan string)
	go func() {
		n, _ := client.Read(buf)
		got <- string(buf[:n])
	}()
	if _, err := server.Write([]byte("later")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "later" {
		t.Fatalf("a waiting read got %q, want later", s)
	}
	server.Close()
	if n, err := client.Read(buf); n != 0 || err != io.EOF {
		t.Fatalf("after the peer closed: %d, %v; want 0, io.EOF", n, err)
	}
}

// Closing the connection ends a read waiting on the poller, with the
// error net gives; so does a deadline, after which the connection reads
// on.
func TestCloseAndDeadlineEndAWaitingRead(t *testing.T) {
	client, _, server := loopback(t)
	failed := make(chan error)
	read := func() {
		_, err := client.Read(make([]byte, 16))
		failed <- err
	}
	go read()
	if err := client.SetReadDeadline(time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	err := <-failed
	var op *net.OpError
	if !errors.Is(err, os.ErrDeadlineExceeded) || !errors.As(err, &op) || op.Op != "read" || !op.Timeout() {
		t.Fatalf("deadline: %#v; want a read *net.OpError that is a timeout", err)
	}
	if err := client.SetReadDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}
	if _, err := server.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if n, err := client.Read(make([]byte, 16)); n != 1 || err != nil {
		t.Fatalf("after the deadline was lifted: %d, %v", n, err)
	}
	go read()
	client.Close()
	if err := <-failed; !errors.Is(err, net.ErrClosed) || !errors.As(err, &op) || op.Op != "read" {
		t.Fatalf("close: %#v; want a read *net.OpError of net.ErrClosed", err)
	}
}

// A connection the peer resets fails the read with the kernel's error.
func TestAResetIsTheReadsError(t *testing.T) {
	client, _, server := loopback(t)
	if err := server.SetLinger(0); err != nil {
		t.Fatal(err)
	}
	server.Close()
	_, err := client.Read(make([]byte, 16))
	var op *net.OpError
	if !errors.Is(err, syscall.ECONNRESET) || !errors.As(err, &op) || op.Op != "read" {
		t.Fatalf("read of a reset connection: %#v; want a read *net.OpError of ECONNRESET", err)
	}
}

// The mark Quiet sets holds through a read that finds data, so a stream
// read once a window sets it once; a read that finds nothing lowers it
// before it waits, and gets the next byte as soon as it comes.
func TestQuietHoldsUntilAReadWaits(t *testing.T) {
	client, tcp, server := loopback(t)
	if !Quiet(client, 4096) {
		t.Fatal("Quiet refused a raw connection")
	}
	if got := lowWater(t, tcp); got != 4096 {
		t.Fatalf("low-water mark %d, want 4096", got)
	}
	if _, err := server.Write([]byte("some")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	if n, err := client.Read(buf); err != nil || string(buf[:n]) != "some" {
		t.Fatalf("read under the mark: %q, %v", buf[:n], err)
	}
	if got := lowWater(t, tcp); got != 4096 {
		t.Fatalf("a read that found data changed the mark to %d", got)
	}
	got := make(chan string)
	go func() {
		n, _ := client.Read(buf)
		got <- string(buf[:n])
	}()
	for lowWater(t, tcp) != 1 { // lowered as the read finds nothing
		runtime.Gosched()
	}
	if _, err := server.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "x" {
		t.Fatalf("a read that waited got %q, want x", s)
	}
}

// Quiet finds the raw connection under TLS, where a stream's bytes
// arrive, and refuses connections that are not raw.
func TestQuietSeesThroughTLSAndOnlyRawConnections(t *testing.T) {
	client, tcp, _ := loopback(t)
	if !Quiet(tls.Client(client, &tls.Config{}), 2048) || lowWater(t, tcp) != 2048 {
		t.Fatalf("Quiet under TLS: mark %d, want 2048", lowWater(t, tcp))
	}
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if Conn(a) != a {
		t.Fatal("a connection without a socket was wrapped")
	}
	if Quiet(a, 2048) || Quiet(tcp, 2048) {
		t.Fatal("Quiet took a connection whose reads are not raw")
	}
}

// SyscallConn reaches the socket under a raw connection, as a
// connection's own does (the gathering's TLS and HTTP/1 layers look for
// it); a closed connection cannot be held quiet.
func TestTheSocketIsReachableAndAClosedOneRefusesQuiet(t *testing.T) {
	client, _, _ := loopback(t)
	raw, err := client.(syscall.Conn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var typ int
	if cerr := raw.Control(func(fd uintptr) { typ, err = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_TYPE) }); cerr != nil || err != nil {
		t.Fatal(cerr, err)
	}
	if typ != syscall.SOCK_STREAM {
		t.Fatalf("socket type %d, want a stream", typ)
	}
	client.Close()
	if Quiet(client, 4096) {
		t.Fatal("Quiet took a closed connection")
	}
}
