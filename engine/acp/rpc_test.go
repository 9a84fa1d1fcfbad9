package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// rawServer is a server on a pipe that a test writes raw lines to.
type rawServer struct {
	in     *io.PipeWriter
	out    *bufio.Scanner
	served chan error
}

func newRawServer(t *testing.T) *rawServer {
	t.Helper()
	fromServer, serverOut := io.Pipe()
	serverIn, toServer := io.Pipe()
	rs := &rawServer{in: toServer, out: bufio.NewScanner(fromServer), served: make(chan error, 1)}
	rs.out.Buffer(make([]byte, 1<<20), 1<<20)
	go func() {
		rs.served <- Serve(context.Background(), serverIn, serverOut, Options{Open: func(context.Context, OpenRequest) (Opened, error) {
			t.Error("no session should open")
			return Opened{}, io.EOF
		}})
		serverOut.Close()
	}()
	t.Cleanup(func() {
		toServer.Close()
		for rs.out.Scan() { // the server may still be writing
		}
		if err := <-rs.served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return rs
}

// send writes one raw line and returns the server's next line.
func (rs *rawServer) send(t *testing.T, line string) map[string]any {
	t.Helper()
	go func() { _, _ = io.WriteString(rs.in, line+"\n") }()
	if !rs.out.Scan() {
		t.Fatal("the server closed its output")
	}
	var m map[string]any
	if err := json.Unmarshal(rs.out.Bytes(), &m); err != nil {
		t.Fatalf("the server wrote %q: %v", rs.out.Text(), err)
	}
	return m
}

// errorCode is a response's error code (0 for none).
func errorCode(m map[string]any) int {
	e, _ := m["error"].(map[string]any)
	code, _ := e["code"].(float64)
	return int(code)
}

func TestMalformedInputGetsErrorsAndTheConnectionLives(t *testing.T) {
	rs := newRawServer(t)
	cases := []struct {
		line string
		code int
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":`, codeParse},
		{`not json at all`, codeParse},
		{`{"jsonrpc":"2.0","id":2,"method":"session/teleport","params":{}}`, codeNoMethod},
		{`{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"relative/path","mcpServers":[]}}`, codeInvalidParams},
		{`{"jsonrpc":"2.0","id":4,"method":"session/new","params":{"cwd":42}}`, codeInvalidParams},
		{`{"jsonrpc":"2.0","id":5,"method":"session/set_mode","params":{"sessionId":"nope","modeId":"plan"}}`, codeNotFound},
		{`{"jsonrpc":"2.0"}`, codeInvalidRequest},
	}
	for _, c := range cases {
		if got := errorCode(rs.send(t, c.line)); got != c.code {
			t.Errorf("%s: error code %d, want %d", c.line, got, c.code)
		}
	}
	resp := rs.send(t, `{"jsonrpc":"2.0","id":"after","method":"initialize","params":{"protocolVersion":1}}`)
	if resp["id"] != "after" || resp["result"] == nil {
		t.Errorf("after bad input, initialize answered %v", resp)
	}
}

func TestOversizedMessageIsRefusedAndSkipped(t *testing.T) {
	rs := newRawServer(t)
	huge := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":"` + strings.Repeat("x", MaxMessageBytes) + `"}}`
	if got := errorCode(rs.send(t, huge)); got != codeInvalidRequest {
		t.Errorf("an oversized message got error %d, want %d", got, codeInvalidRequest)
	}
	resp := rs.send(t, `{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":1}}`)
	if resp["result"] == nil {
		t.Errorf("the next message was not read whole: %v", resp)
	}
}

func TestReadLineSplitsAndBounds(t *testing.T) {
	r := bufio.NewReaderSize(strings.NewReader("short\n"+strings.Repeat("y", 100)+"\nlast"), 16)
	for _, want := range []string{"short", "", "last"} {
		line, err := readLine(r, 50)
		if want == "" {
			if err != errTooLong {
				t.Fatalf("a 100-byte line under a 50-byte bound: %q, %v", line, err)
			}
			continue
		}
		if string(line) != want || (err != nil && err != io.EOF) {
			t.Fatalf("readLine = %q, %v; want %q", line, err, want)
		}
	}
}
