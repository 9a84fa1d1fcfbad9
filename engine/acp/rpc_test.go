package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/acp/jsonrpc"
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
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":`, jsonrpc.CodeParse},
		{`not json at all`, jsonrpc.CodeParse},
		{`{"jsonrpc":"2.0","id":2,"method":"session/teleport","params":{}}`, jsonrpc.CodeNoMethod},
		{`{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"relative/path","mcpServers":[]}}`, jsonrpc.CodeInvalidParams},
		{`{"jsonrpc":"2.0","id":4,"method":"session/new","params":{"cwd":42}}`, jsonrpc.CodeInvalidParams},
		{`{"jsonrpc":"2.0","id":5,"method":"session/set_mode","params":{"sessionId":"nope","modeId":"plan"}}`, jsonrpc.CodeNotFound},
		{`{"jsonrpc":"2.0"}`, jsonrpc.CodeInvalidRequest},
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
	huge := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":"` + strings.Repeat("x", jsonrpc.MaxMessageBytes) + `"}}`
	if got := errorCode(rs.send(t, huge)); got != jsonrpc.CodeInvalidRequest {
		t.Errorf("an oversized message got error %d, want %d", got, jsonrpc.CodeInvalidRequest)
	}
	resp := rs.send(t, `{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":1}}`)
	if resp["result"] == nil {
		t.Errorf("the next message was not read whole: %v", resp)
	}
}
