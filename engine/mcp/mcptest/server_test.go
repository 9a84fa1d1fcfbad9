package mcptest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect joins an SDK client, with roots, to srv in memory.
func connect(t *testing.T, srv *sdk.Server) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	serverEnd, clientEnd := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, serverEnd, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	//lint:ignore SA1019 roots are what the roots tool of this test server reports
	c.AddRoots(&sdk.Root{URI: "file:///work", Name: "work"})
	cs, err := c.Connect(ctx, clientEnd, nil)
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
	})
	return cs
}

// call runs one tool and returns its result.
func call(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

// text joins a result's text parts.
func text(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func TestDotPNGIsARealRedPicture(t *testing.T) {
	img, err := png.Decode(bytes.NewReader(DotPNG()))
	if err != nil {
		t.Fatalf("DotPNG does not decode: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 2 || b.Dy() != 2 {
		t.Fatalf("bounds = %v", b)
	}
	if r, g, b, a := img.At(1, 1).RGBA(); r != 0xffff || g != 0 || b != 0 || a != 0xffff {
		t.Fatalf("pixel = %d %d %d %d, want red", r, g, b, a)
	}
}

func TestServerToolsAnswerAsDocumented(t *testing.T) {
	cs := connect(t, NewServer())
	if got := cs.InitializeResult().Instructions; got != Instructions {
		t.Fatalf("instructions = %q", got)
	}
	if got := text(call(t, cs, "echo", map[string]any{"text": "hi"})); got != "echo: hi" {
		t.Fatalf("echo = %q", got)
	}
	fail := call(t, cs, "fail", nil)
	if !fail.IsError || text(fail) != "boom: the widget is broken" {
		t.Fatalf("fail = %+v", fail)
	}
	img := call(t, cs, "image", nil)
	if len(img.Content) != 2 || text(img) != "a red dot" {
		t.Fatalf("image = %+v", img)
	}
	if ic, ok := img.Content[1].(*sdk.ImageContent); !ok || ic.MIMEType != "image/png" || !bytes.Equal(ic.Data, DotPNG()) {
		t.Fatalf("image part = %+v", img.Content[1])
	}
	if got := text(call(t, cs, "pid", nil)); got == "" || strings.Trim(got, "0123456789") != "" {
		t.Fatalf("pid = %q, want a number", got)
	}
	if got := text(call(t, cs, "roots", nil)); got != "file:///work work" {
		t.Fatalf("roots = %q, want the client's one root", got)
	}
}

func TestHangEndsOnlyWhenTheCallIsCancelled(t *testing.T) {
	cs := connect(t, NewServer())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "hang", Arguments: map[string]any{}})
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("hang answered before it was cancelled: %v", err)
	default:
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled hang = %v", err)
	}
	// The session still answers after the cancelled call.
	if got := text(call(t, cs, "echo", map[string]any{"text": "after"})); got != "echo: after" {
		t.Fatalf("echo after cancel = %q", got)
	}
}

func TestServerResourcesAndPrompts(t *testing.T) {
	cs := connect(t, NewServer())
	ctx := context.Background()
	note, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: NoteURI})
	if err != nil || note.Contents[0].Text != NoteText {
		t.Fatalf("note = %+v, %v", note, err)
	}
	dot, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: DotURI})
	if err != nil || !bytes.Equal(dot.Contents[0].Blob, DotPNG()) || dot.Contents[0].MIMEType != "image/png" {
		t.Fatalf("dot = %+v, %v", dot, err)
	}
	named, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "test://notes/shopping"})
	if err != nil || named.Contents[0].Text != "a note called shopping" {
		t.Fatalf("templated note = %+v, %v", named, err)
	}
	greet, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "greet", Arguments: map[string]string{"city": "Oslo"}})
	if err != nil || greet.Messages[0].Content.(*sdk.TextContent).Text != "Write a plain greeting for Oslo." {
		t.Fatalf("greet = %+v, %v", greet, err)
	}
	greet, err = cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "greet", Arguments: map[string]string{"city": "Rome", "style": "warm"}})
	if err != nil || greet.Messages[0].Content.(*sdk.TextContent).Text != "Write a warm greeting for Rome." {
		t.Fatalf("styled greet = %+v, %v", greet, err)
	}
	show, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "show dot"})
	if err != nil || len(show.Messages) != 4 || show.Messages[2].Role != "assistant" {
		t.Fatalf("show dot = %+v, %v", show, err)
	}
	if r, ok := show.Messages[3].Content.(*sdk.EmbeddedResource); !ok || r.Resource.Text != NoteText {
		t.Fatalf("embedded resource = %+v", show.Messages[3].Content)
	}
}

func TestHostileServerPushesEveryBound(t *testing.T) {
	cs := connect(t, NewHostileServer())
	ctx := context.Background()
	if got := cs.InitializeResult().Instructions; !strings.HasPrefix(got, HostileInstructions) || len(got) < 20000 {
		t.Fatalf("instructions are %d bytes, want the escapes and far past any bound", len(got))
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	descriptions := map[string]string{}
	for _, tool := range tools.Tools {
		descriptions[tool.Name] = tool.Description
	}
	if d := descriptions["long"]; len(d) != LongDescription || !strings.HasSuffix(d, LongDescriptionEnd) {
		t.Fatalf("long description: %d bytes", len(d))
	}
	if d := descriptions["rules"]; len(d) != RulesDescription || !strings.HasSuffix(d, RulesEnd) {
		t.Fatalf("rules description: %d bytes", len(d))
	}
	if n := len(call(t, cs, "many", nil).Content); n != ManyImages {
		t.Fatalf("many = %d pictures", n)
	}
	// fake_images is not called here: its 6 MiB picture costs seconds
	// under the race detector; the engine's MCP tests call it.
	if _, ok := descriptions["fake_images"]; !ok {
		t.Fatalf("no fake_images tool")
	}
	// Nor is the huge resource read (3 MiB, a second under the race
	// detector); it is listed.
	resources, err := cs.ListResources(ctx, nil)
	if err != nil || len(resources.Resources) != 1 || resources.Resources[0].URI != HugeURI {
		t.Fatalf("resources = %+v, %v", resources, err)
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(prompts.Prompts) != 3 {
		t.Fatalf("prompts = %+v, %v", prompts, err)
	}
	trap, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "trap"})
	if err != nil || trap.Messages[0].Content.(*sdk.TextContent).Text != "trap" {
		t.Fatalf("trap = %+v, %v", trap, err)
	}
	if _, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "many"}); err != nil {
		t.Fatalf("many: %v", err)
	}
}

func TestMalformedServerSendsAnImageThatIsNotBase64(t *testing.T) {
	var in bytes.Buffer
	for i, method := range []string{"initialize", "tools/list", "tools/call", "resources/list"} {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":%q}`+"\n", i+1, method)
		// Notifications and lines that are not JSON get no answer.
		in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\nnot json\n")
	}
	var out bytes.Buffer
	serveMalformed(&in, &out)
	var lines []string
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) != 4 {
		t.Fatalf("%d answers, want one per request: %q", len(lines), lines)
	}
	for i, want := range []string{`"serverInfo":{"name":"malformed"`, `"name":"picture"`, `"data":"!!! not base64 !!!"`, `"id":4,"error":{"code":-32601`} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("answer %d = %s, want %s", i+1, lines[i], want)
		}
	}
}

func TestHTTPRefusesRequestsWithoutTheWantedHeaders(t *testing.T) {
	url := HTTP(t, map[string]string{"Authorization": "Bearer k"})
	resp, err := http.Post(url, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(body), "missing Authorization") {
		t.Fatalf("without the header: %d %q", resp.StatusCode, body)
	}

	ctx := context.Background()
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{}}}, nil)
	if err != nil {
		t.Fatalf("connect with the header: %v", err)
	}
	defer func() { _ = cs.Close() }()
	if got := text(call(t, cs, "echo", map[string]any{"text": "over http"})); got != "echo: over http" {
		t.Fatalf("echo over HTTP = %q", got)
	}
}

// bearer adds the header the server wants.
type bearer struct{}

func (bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer k")
	return http.DefaultTransport.RoundTrip(r)
}

// stdioServer runs serveStdio on pipes and returns the client's ends and
// the exit code to come.
func stdioServer(mode, marker string) (toServer *io.PipeWriter, fromServer *io.PipeReader, code <-chan int) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	exit := make(chan int, 1)
	go func() {
		exit <- serveStdio(mode, inR, outW, marker)
		_ = outW.Close()
	}()
	return inW, outR, exit
}

func TestStdioModes(t *testing.T) {
	ctx := context.Background()
	marker := t.TempDir() + "/started"
	for _, mode := range []string{ModeServe, ModeOnce, ModeHostile} {
		in, out, code := stdioServer(mode, marker)
		c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
		cs, err := c.Connect(ctx, &sdk.IOTransport{Reader: out, Writer: in}, nil)
		if err != nil {
			t.Fatalf("%s: connect: %v", mode, err)
		}
		tools, err := cs.ListTools(ctx, nil)
		if err != nil || len(tools.Tools) == 0 {
			t.Fatalf("%s: tools = %+v, %v", mode, tools, err)
		}
		want := map[string]string{ModeServe: "echo", ModeOnce: "echo", ModeHostile: "long"}[mode]
		if !slices.ContainsFunc(tools.Tools, func(tool *sdk.Tool) bool { return tool.Name == want }) {
			t.Errorf("%s does not serve %q", mode, want)
		}
		_ = cs.Close()
		if c := <-code; c != 0 {
			t.Errorf("%s: exit %d after the client left", mode, c)
		}
	}

	// ModeOnce started once above: a second start refuses at once.
	in, out, code := stdioServer(ModeOnce, marker)
	if c := <-code; c != 4 {
		t.Fatalf("second once: exit %d, want 4", c)
	}
	if rest, _ := io.ReadAll(out); len(rest) != 0 {
		t.Fatalf("a refused start wrote %q", rest)
	}
	_ = in.Close()
	if c := <-func() <-chan int { _, _, c := stdioServer(ModeOnce, t.TempDir()+"/missing/dir"); return c }(); c != 5 {
		t.Fatalf("once with an unwritable marker: exit %d, want 5", c)
	}

	// ModeHang reads everything and never answers.
	in, out, code = stdioServer(ModeHang, marker)
	go func() {
		_, _ = io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize"}`+"\n")
		_ = in.Close()
	}()
	if rest, _ := io.ReadAll(out); len(rest) != 0 || <-code != 0 {
		t.Fatalf("hang answered %q", rest)
	}

	// ModeMalformed answers by hand.
	in, out, code = stdioServer(ModeMalformed, marker)
	go func() {
		_, _ = io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`+"\n")
		_ = in.Close()
	}()
	if rest, _ := io.ReadAll(out); !strings.Contains(string(rest), "not base64") || <-code != 0 {
		t.Fatalf("malformed answered %q", rest)
	}
}
