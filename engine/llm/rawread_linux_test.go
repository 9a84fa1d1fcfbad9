package llm

import (
	"errors"
	"net"
	"os"
	"syscall"
	"testing"
	"time"
)

// A raw-read connection reads what the peer sent and ends as net's own
// does: the same data, io.EOF at a close, and the same errors, word for
// word, at a reset and a passed deadline.
func TestRawReadsReadAsNetDoes(t *testing.T) {
	for _, c := range []struct {
		name string
		peer func(t *testing.T, server net.Conn)
		prep func(client net.Conn)
	}{
		{"data then close", func(t *testing.T, s net.Conn) {
			if _, err := s.Write([]byte("data: {}\n\n")); err != nil {
				t.Fatal(err)
			}
			s.Close()
		}, func(net.Conn) {}},
		{"reset", func(t *testing.T, s net.Conn) {
			if err := s.(*net.TCPConn).SetLinger(0); err != nil {
				t.Fatal(err)
			}
			s.Close()
		}, func(net.Conn) {}},
		{"deadline", func(*testing.T, net.Conn) {}, func(c net.Conn) { _ = c.SetReadDeadline(time.Now().Add(-time.Second)) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			read := func(wrap bool) (string, error) {
				client, server := loopback(t)
				if wrap {
					client = rawReads(client)
					if _, ok := client.(*rawReadConn); !ok {
						t.Fatalf("a TCP connection was not given raw reads: %T", client)
					}
				}
				c.peer(t, server)
				c.prep(client)
				var got []byte
				buf := make([]byte, 4)
				for {
					n, err := client.Read(buf)
					got = append(got, buf[:n]...)
					if err != nil {
						return string(got), err
					}
				}
			}
			wantData, wantErr := read(false)
			gotData, gotErr := read(true)
			if gotData != wantData {
				t.Errorf("read %q, net reads %q", gotData, wantData)
			}
			// The addresses differ from one connection to the next.
			var gotOp, wantOp *net.OpError
			if errors.As(gotErr, &gotOp) != errors.As(wantErr, &wantOp) {
				t.Fatalf("error %#v, net's %#v", gotErr, wantErr)
			}
			if gotOp != nil {
				if gotOp.Op != wantOp.Op || gotOp.Net != wantOp.Net || gotOp.Err.Error() != wantOp.Err.Error() || gotOp.Timeout() != wantOp.Timeout() {
					t.Errorf("error %v, net's %v", gotErr, wantErr)
				}
			} else if gotErr != wantErr {
				t.Errorf("error %v, net's %v", gotErr, wantErr)
			}
		})
	}
}

// What callers test errors for holds of a raw read's: a reset is
// ECONNRESET, a passed deadline a timeout.
func TestRawReadErrorsAreRecognised(t *testing.T) {
	client, server := loopback(t)
	client = rawReads(client)
	_ = server.(*net.TCPConn).SetLinger(0)
	server.Close()
	if _, err := client.Read(make([]byte, 8)); !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("a reset reads as %v, not ECONNRESET", err)
	}
	client, _ = loopback(t)
	client = rawReads(client)
	_ = client.SetReadDeadline(time.Now().Add(-time.Second))
	_, err := client.Read(make([]byte, 8))
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("a passed deadline reads as %v, not a timeout", err)
	}
}

// A connection that is not TCP is left as it is.
func TestRawReadsLeaveOtherConnections(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if got := rawReads(a); got != a {
		t.Fatalf("a pipe came back as %T", got)
	}
}
