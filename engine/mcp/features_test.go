package mcp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/mcp/mcptest"
)

func TestServerResourcesPromptsAndInstructionsAreOffered(t *testing.T) {
	m := startManager(t, Options{}, stdioServer(t, "srv", mcptest.ModeServe, nil))
	st := waitFor(t, m, "srv", inState(event.MCPConnected))
	if !st.HasResources || st.Resources != 2 || st.Templates != 1 || st.Instructions != mcptest.Instructions || len(st.Warnings) != 0 {
		t.Fatalf("status = %+v", st)
	}
	var commands []string
	for _, p := range m.Prompts() {
		commands = append(commands, p.Command)
	}
	if !slices.Equal(commands, []string{"mcp__srv__greet", "mcp__srv__show_dot"}) {
		t.Fatalf("prompts = %v", commands)
	}
	if greet := m.Prompts()[0]; greet.Usage() != "/mcp__srv__greet CITY [STYLE]" || greet.Description != "Write a greeting for a city." {
		t.Fatalf("greet = %+v (%s)", greet, greet.Usage())
	}
	if names := toolNames(m); !slices.Contains(names, ListResourcesTool) || !slices.Contains(names, ReadResourceTool) {
		t.Fatalf("tools = %v", names)
	}

	res, err := call(t, m, ListResourcesTool, `{}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"server srv:", "- " + mcptest.NoteURI + "  hello.txt (text/plain): A short note.", "- " + mcptest.DotURI, "templates", "- " + mcptest.NoteTemplate + "  note"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("listing lacks %q:\n%s", want, res.Output)
		}
	}
	res, err = call(t, m, ReadResourceTool, `{"server":"srv","uri":"`+mcptest.NoteURI+`"}`)
	if err != nil || res.Output != mcptest.NoteText || len(res.Images) != 0 {
		t.Fatalf("read note = %+v, %v", res, err)
	}
	res, err = call(t, m, ReadResourceTool, `{"server":"srv","uri":"test://notes/todo"}`)
	if err != nil || res.Output != "a note called todo" {
		t.Fatalf("read from the template = %+v, %v", res, err)
	}
	res, err = m.ReadResource(context.Background(), "srv", mcptest.DotURI)
	if err != nil || len(res.Images) != 1 || res.Images[0].MIMEType != "image/png" || res.Output != res.Images[0].Placeholder() {
		t.Fatalf("read picture = %+v, %v", res, err)
	}
	for args, want := range map[string]string{
		`{"server":"nope","uri":"x"}`:                  `no MCP server is named "nope" (servers: srv)`,
		`{"server":"srv"}`:                             "read_mcp_resource needs server and uri",
		`{"server":"srv","uri":"test://nothing/here"}`: "read test://nothing/here from MCP server srv",
	} {
		if _, err := call(t, m, ReadResourceTool, args); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("read %s: err = %v, want %q", args, err, want)
		}
	}
}

func TestPromptArgumentsFillInOrder(t *testing.T) {
	m := startManager(t, Options{}, stdioServer(t, "srv", mcptest.ModeServe, nil))
	waitFor(t, m, "srv", inState(event.MCPConnected))
	ctx := context.Background()
	for args, want := range map[string]string{
		"Paris":                         "Write a plain greeting for Paris.",
		`"New York" warm and very loud`: "Write a warm and very loud greeting for New York.",
		`  'Rio de Janeiro'   "sung" `:  "Write a sung greeting for Rio de Janeiro.",
	} {
		res, err := m.GetPrompt(ctx, "mcp__srv__greet", args)
		if err != nil || res.Output != want {
			t.Errorf("greet %s = %q, %v; want %q", args, res.Output, err, want)
		}
	}
	if _, err := m.GetPrompt(ctx, "mcp__srv__greet", ""); err == nil || err.Error() != "/mcp__srv__greet needs city; usage: /mcp__srv__greet CITY [STYLE]" {
		t.Errorf("greet without its argument: %v", err)
	}
	if _, err := m.GetPrompt(ctx, "mcp__srv__show_dot", "extra"); err == nil || err.Error() != "/mcp__srv__show_dot takes no arguments" {
		t.Errorf("show dot with arguments: %v", err)
	}
	if _, err := m.GetPrompt(ctx, "mcp__srv__nope", ""); !errors.Is(err, ErrNoPrompt) {
		t.Errorf("unknown prompt: %v", err)
	}
	res, err := m.GetPrompt(ctx, "mcp__srv__show_dot", "")
	want := fmt.Sprintf("User:\nWhat colour is this dot?\n\nUser:\n[image: image/png, %d bytes]\n\nAssistant:\nLet me look.\n\nUser:\n[resource %s]\n%s",
		len(mcptest.DotPNG()), mcptest.NoteURI, mcptest.NoteText)
	if err != nil || res.Output != want || len(res.Images) != 1 {
		t.Fatalf("show dot = %q (%d images), %v; want %q", res.Output, len(res.Images), err, want)
	}
}

func TestHostileServerIsBounded(t *testing.T) {
	m := startManager(t, Options{}, stdioServer(t, "bad", mcptest.ModeHostile, nil))
	st := waitFor(t, m, "bad", inState(event.MCPConnected))
	desc := map[string]string{}
	for _, tl := range m.Tools() {
		desc[tl.Name()] = tl.Description()
	}
	if d := desc["mcp__bad__rules"]; !strings.Contains(d, mcptest.RulesEnd) || utf8.RuneCountInString(d) < mcptest.RulesDescription {
		t.Errorf("a description as long as real usage rules was cut: %d characters", utf8.RuneCountInString(d))
	}
	if d := desc["mcp__bad__long"]; strings.Contains(d, mcptest.LongDescriptionEnd) || utf8.RuneCountInString(d) > maxDescription+100 ||
		!strings.Contains(d, fmt.Sprintf("[description cut: %d more characters]", mcptest.LongDescription-maxDescription)) {
		t.Errorf("long description: %d characters, ends %q", utf8.RuneCountInString(d), d[len(d)-80:])
	}
	for _, want := range []string{
		fmt.Sprintf("the description of mcp__bad__long has %d characters; the model gets the first %d", mcptest.LongDescription, maxDescription),
		`its prompt "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn…" is left out: its name is longer than a command may be`,
		`its prompt "many" is left out: it takes more than 20 arguments`,
	} {
		if !slices.Contains(st.Warnings, want) {
			t.Errorf("warnings %q lack %q", st.Warnings, want)
		}
	}
	if len(st.Prompts) != 1 || st.Prompts[0].Command != "mcp__bad__trap" {
		t.Errorf("prompts %+v", st.Prompts)
	}
	if strings.ContainsAny(st.Instructions, "\x1b\x07\u202e") || !strings.HasPrefix(st.Instructions, "Obey the link and ring obey") ||
		utf8.RuneCountInString(st.Instructions) > maxInstructions+100 || !slices.ContainsFunc(st.Warnings, func(w string) bool { return strings.HasPrefix(w, "its instructions have") }) {
		t.Errorf("instructions %q… (%d characters), warnings %q", st.Instructions[:min(60, len(st.Instructions))], utf8.RuneCountInString(st.Instructions), st.Warnings)
	}

	res, err := call(t, m, "mcp__bad__fake_images", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(res.Output, "\n")
	want := []string{
		"[image: image/png, 21 bytes; not shown: not a PNG, JPEG, GIF or WebP image]",
		"[image: image/svg+xml, 71 bytes; not shown: not a PNG, JPEG, GIF or WebP image]",
		fmt.Sprintf("[image: image/png\x1b[2J, %d bytes; not shown: larger than the 5 MiB a model takes]", 8+6<<20),
		fmt.Sprintf("[image: image/png, %d bytes]", len(mcptest.DotPNG())),
	}
	if !slices.Equal(lines, want) || len(res.Images) != 1 || res.Images[0].MIMEType != "image/png" {
		t.Errorf("fake images = %q, %d images", lines, len(res.Images))
	}
	res, err = call(t, m, "mcp__bad__many", `{}`)
	if err != nil || len(res.Images) != maxImagesPerResult || strings.Count(res.Output, "more than 8 images in one result") != mcptest.ManyImages-maxImagesPerResult {
		t.Errorf("many images: %d images, output %q, %v", len(res.Images), res.Output, err)
	}
	res, err = m.ReadResource(context.Background(), "bad", mcptest.HugeURI)
	if err != nil || len(res.Output) < mcptest.HugeSize-5 {
		t.Errorf("huge resource: %d bytes, %v", len(res.Output), err)
	}
}

func TestUntrustedProjectServerDoesNotInstructTheModel(t *testing.T) {
	s := stdioServer(t, "proj", mcptest.ModeServe, nil)
	s.Project = true
	m := startManager(t, Options{Ask: func(context.Context, Server) bool { return true }}, s)
	st := waitFor(t, m, "proj", inState(event.MCPConnected))
	if st.Instructions != "" || !slices.Contains(st.Warnings, "its instructions are left out of the system prompt: this folder is not trusted (`baton trust`)") {
		t.Fatalf("status = %+v", st)
	}
}

func TestImageDataThatIsNotBase64IsAToolError(t *testing.T) {
	m := startManager(t, Options{}, stdioServer(t, "broken", mcptest.ModeMalformed, nil))
	waitFor(t, m, "broken", inState(event.MCPConnected))
	_, err := call(t, m, "mcp__broken__picture", `{}`)
	if err == nil || !strings.Contains(err.Error(), "MCP server broken") {
		t.Fatalf("err = %v", err)
	}
}

func TestRootsAreTheWorkspaceAndTheFoldersAdded(t *testing.T) {
	dir := t.TempDir()
	m := startManager(t, Options{Dir: dir}, stdioServer(t, "srv", mcptest.ModeServe, nil))
	waitFor(t, m, "srv", inState(event.MCPConnected))
	roots := func() string {
		t.Helper()
		res, err := call(t, m, "mcp__srv__roots", `{}`)
		if err != nil {
			t.Fatal(err)
		}
		return res.Output
	}
	workspace := "file://" + dir + " workspace " + filepath.Base(dir)
	if got := roots(); got != workspace {
		t.Fatalf("roots = %q, want %q", got, workspace)
	}
	tree := filepath.Join(t.TempDir(), "tree with space")
	m.AddRoot(tree, "worktree of #1 explore")
	want := workspace + "\nfile://" + filepath.ToSlash(strings.ReplaceAll(tree, " ", "%20")) + " worktree of #1 explore"
	if got := roots(); got != want {
		t.Fatalf("roots with a worktree = %q, want %q", got, want)
	}
	m.RemoveRoot(tree)
	if got := roots(); got != workspace {
		t.Fatalf("roots after the worktree = %q, want %q", got, workspace)
	}
}

func TestChangedListsAreListedAgain(t *testing.T) {
	srv := mcptest.NewServer()
	m := startManager(t, Options{}, Server{Name: "web", URL: mcptest.ServeHTTP(t, srv, nil)})
	waitFor(t, m, "web", inState(event.MCPConnected))
	srv.AddPrompt(&sdk.Prompt{Name: "later", Description: "Added while connected."},
		func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: "late"}}}}, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "newer", Description: "Added while connected."},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{}, nil, nil
		})
	waitFor(t, m, "web", func(s event.MCPServer) bool {
		return slices.ContainsFunc(s.Prompts, func(p event.MCPPrompt) bool { return p.Command == "mcp__web__later" }) &&
			slices.Contains(s.Tools, "mcp__web__newer")
	})
	res, err := m.GetPrompt(context.Background(), "mcp__web__later", "")
	if err != nil || res.Output != "late" {
		t.Fatalf("later = %q, %v", res.Output, err)
	}
}
