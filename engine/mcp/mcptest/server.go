// Package mcptest is a real MCP server for tests across baton, written
// with the same SDK baton's client uses. It serves over stdio (a test
// binary re-executed as the server) or streamable HTTP on loopback, with
// tools that echo, fail, return an image, report their process and the
// roots they were given, start a child process, never answer, and crash;
// resources and prompts; and a hostile server that abuses every bound.
package mcptest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ModeEnv names the variable that turns a re-executed test binary into a
// stdio server: its value is the mode given to RunStdio.
const ModeEnv = "BATON_MCPTEST_SERVER"

// The stdio modes.
const (
	// ModeServe answers like any server.
	ModeServe = "serve"
	// ModeHang never answers the handshake.
	ModeHang = "hang"
	// ModeHostile serves NewHostileServer.
	ModeHostile = "hostile"
	// ModeMalformed answers like a server whose tool results do not
	// decode (see serveMalformed).
	ModeMalformed = "malformed"
	// ModeOnce serves the first time it is started (per marker file in
	// MarkerEnv) and exits at once every later time.
	ModeOnce = "once"
)

// MarkerEnv names the file ModeOnce uses to know it ran before.
const MarkerEnv = "BATON_MCPTEST_MARKER"

// echoArgs are the arguments of echo.
type echoArgs struct {
	Text string `json:"text" jsonschema:"the text to send back"`
}

// none is an empty argument object.
type none struct{}

// NewServer returns a server with the test tools, resources and prompts,
// and Instructions for the model.
func NewServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "mcptest", Version: "1"}, &sdk.ServerOptions{Instructions: Instructions})
	addFeatures(s)
	text := func(s string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echo the text back."},
		func(_ context.Context, _ *sdk.CallToolRequest, a echoArgs) (*sdk.CallToolResult, any, error) {
			return text("echo: " + a.Text), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "fail", Description: "Always fails."},
		func(context.Context, *sdk.CallToolRequest, none) (*sdk.CallToolResult, any, error) {
			r := text("boom: the widget is broken")
			r.IsError = true
			return r, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "image", Description: "Returns a picture."},
		func(context.Context, *sdk.CallToolRequest, none) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a red dot"},
				&sdk.ImageContent{MIMEType: "image/png", Data: DotPNG()}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "pid", Description: "Reports the server's process id."},
		func(context.Context, *sdk.CallToolRequest, none) (*sdk.CallToolResult, any, error) {
			return text(strconv.Itoa(os.Getpid())), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "spawn", Description: "Starts a long sleep and reports its process id."},
		func(context.Context, *sdk.CallToolRequest, none) (*sdk.CallToolResult, any, error) {
			cmd := exec.Command("sleep", "300")
			if err := cmd.Start(); err != nil {
				return nil, nil, err
			}
			return text(strconv.Itoa(cmd.Process.Pid)), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "hang", Description: "Never answers; ends only when the client cancels the call."},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
			<-ctx.Done()
			return nil, nil, ctx.Err()
		})
	sdk.AddTool(s, &sdk.Tool{Name: "crash", Description: "Exits the server at once."},
		func(context.Context, *sdk.CallToolRequest, none) (*sdk.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "crashing on purpose")
			os.Exit(3)
			return nil, nil, nil
		})
	return s
}

// RunStdio serves mode on stdin and stdout until the client goes away,
// then exits the process; a test's TestMain calls it when ModeEnv is set.
func RunStdio(mode string) {
	os.Exit(serveStdio(mode, os.Stdin, os.Stdout, os.Getenv(MarkerEnv)))
}

// serveStdio serves mode on in and out until the client goes away and
// returns the exit code; marker is ModeOnce's file.
func serveStdio(mode string, in io.ReadCloser, out io.WriteCloser, marker string) int {
	transport := &sdk.IOTransport{Reader: in, Writer: out}
	srv := NewServer()
	switch mode {
	case ModeHang:
		_, _ = io.Copy(io.Discard, in)
		return 0
	case ModeHostile:
		srv = NewHostileServer()
	case ModeMalformed:
		serveMalformed(in, out)
		return 0
	case ModeOnce:
		if _, err := os.Stat(marker); err == nil {
			fmt.Fprintln(os.Stderr, "refusing to start twice")
			return 4
		}
		if err := os.WriteFile(marker, nil, 0o600); err != nil {
			return 5
		}
	}
	if err := srv.Run(context.Background(), transport); err != nil {
		return 1
	}
	return 0
}

// HTTP serves NewServer over streamable HTTP on loopback until the test
// ends and returns its URL. Requests without every header of want are
// refused with 401, so a test can check that configured headers arrive.
func HTTP(t testing.TB, want map[string]string) string {
	t.Helper()
	return ServeHTTP(t, NewServer(), want)
}

// ServeHTTP serves srv like HTTP does, so a test can change what srv
// offers while a client is connected.
func ServeHTTP(t testing.TB, srv *sdk.Server, want map[string]string) string {
	t.Helper()
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range want {
			if r.Header.Get(k) != v {
				http.Error(w, "missing "+k, http.StatusUnauthorized)
				return
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL
}
