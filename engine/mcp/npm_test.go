package mcp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// The real servers from npm these tests run against are installed in
// testdata/npm-servers by `npm ci` (.ci/run does it; package-lock.json
// pins their versions).
const npmServers = "testdata/npm-servers/node_modules/.bin/"

// npmServer is the definition of a server installed from npm. Without
// Node.js the test is skipped; with it, a server not installed fails the
// test, saying how to install it, so CI never passes without running it.
func npmServer(t *testing.T, name, bin string, args ...string) Server {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node to run " + bin)
	}
	path, err := filepath.Abs(npmServers + bin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("%s is not installed: run npm ci --prefix engine/mcp/testdata/npm-servers (.ci/run does)", bin)
	}
	return Server{Name: name, Command: path, Args: args, Source: "npm"}
}

// everything starts @modelcontextprotocol/server-everything, the
// reference server with tools, resources, templates, prompts, pictures,
// roots and instructions.
func everything(t *testing.T, dir string) *Manager {
	t.Helper()
	m := startManager(t, Options{Dir: dir}, npmServer(t, "everything", "mcp-server-everything"))
	waitFor(t, m, "everything", inState(event.MCPConnected))
	return m
}

func TestEverythingServerOffersAllItHas(t *testing.T) {
	m := everything(t, t.TempDir())
	st := m.Statuses()[0]
	var commands []string
	for _, p := range st.Prompts {
		commands = append(commands, p.Command)
	}
	for _, want := range []string{"mcp__everything__simple-prompt", "mcp__everything__args-prompt", "mcp__everything__resource-prompt"} {
		if !slices.Contains(commands, want) {
			t.Errorf("prompts %v lack %s", commands, want)
		}
	}
	if !st.HasResources || st.Resources == 0 || st.Templates == 0 || len(st.Warnings) != 0 {
		t.Errorf("status %+v", st)
	}
	// Its instructions end with an easter egg a model recites when they
	// reached it.
	if !strings.Contains(st.Instructions, "Server instructions are working!") {
		t.Errorf("instructions %q", st.Instructions)
	}
	if names := toolNames(m); !slices.Contains(names, ListResourcesTool) || !slices.Contains(names, "mcp__everything__get-tiny-image") {
		t.Errorf("tools %v", names)
	}
}

func TestEverythingServerPictureResourcesAndPrompts(t *testing.T) {
	m := everything(t, t.TempDir())
	ctx := context.Background()

	res, err := call(t, m, "mcp__everything__get-tiny-image", `{}`)
	if err != nil || len(res.Images) != 1 || res.Images[0].MIMEType != "image/png" || !strings.Contains(res.Output, res.Images[0].Placeholder()) {
		t.Fatalf("tiny image = %q (%d images), %v", res.Output, len(res.Images), err)
	}

	res, err = call(t, m, ListResourcesTool, `{"server":"everything"}`)
	if err != nil || !strings.Contains(res.Output, "demo://resource/static/document/") || !strings.Contains(res.Output, "demo://resource/dynamic/text/{resourceId}") {
		t.Fatalf("listing = %q, %v", res.Output, err)
	}
	res, err = m.ReadResource(ctx, "everything", "demo://resource/dynamic/text/7")
	if err != nil || !strings.HasPrefix(res.Output, "Resource 7: This is a plaintext resource") {
		t.Fatalf("text resource = %q, %v", res.Output, err)
	}
	// A blob labelled text/plain is read as the text it is.
	res, err = m.ReadResource(ctx, "everything", "demo://resource/dynamic/blob/3")
	if err != nil || !strings.HasPrefix(res.Output, "Resource 3: This is a base64 blob") {
		t.Fatalf("blob resource = %q, %v", res.Output, err)
	}

	res, err = m.GetPrompt(ctx, "mcp__everything__args-prompt", "Paris")
	if err != nil || res.Output != "What's weather in Paris?" {
		t.Fatalf("args-prompt = %q, %v", res.Output, err)
	}
	res, err = m.GetPrompt(ctx, "mcp__everything__resource-prompt", "Text 1")
	if err != nil || !strings.Contains(res.Output, "Please analyze the following resource:") ||
		!strings.Contains(res.Output, "[resource demo://resource/dynamic/text/1]\nResource 1: This is a plaintext resource") {
		t.Fatalf("resource-prompt = %q, %v", res.Output, err)
	}
	if _, err := m.GetPrompt(ctx, "mcp__everything__args-prompt", ""); err == nil || !strings.Contains(err.Error(), "needs city") {
		t.Fatalf("args-prompt without its city: %v", err)
	}
}

func TestEverythingServerGetsTheWorkspaceAsItsRoot(t *testing.T) {
	dir := t.TempDir()
	m := everything(t, dir)
	res, err := call(t, m, "mcp__everything__get-roots-list", `{}`)
	if err != nil || !strings.Contains(res.Output, "URI: file://"+dir) || !strings.Contains(res.Output, "workspace "+filepath.Base(dir)) {
		t.Fatalf("roots = %q, %v", res.Output, err)
	}
}

// eventually calls ok, a request to a real server, until it holds: the
// server applies roots on its own after answering, and tells no one.
func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 30 s", what)
		}
	}
}

func TestFilesystemServerWorksInTheRootsItIsGiven(t *testing.T) {
	workspace, tree := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(tree, "note.txt"), []byte("from the worktree"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Started with no folder of its own, the server works only in the
	// roots the client gives.
	m := startManager(t, Options{Dir: workspace}, npmServer(t, "fs", "mcp-server-filesystem"))
	waitFor(t, m, "fs", inState(event.MCPConnected))
	allowed := func(dir string) func() bool {
		return func() bool {
			res, err := call(t, m, "mcp__fs__list_allowed_directories", `{}`)
			return err == nil && strings.Contains(res.Output, dir)
		}
	}
	eventually(t, "the workspace allowed", allowed(workspace))
	read := `{"path":"` + filepath.Join(tree, "note.txt") + `"}`
	if _, err := call(t, m, "mcp__fs__read_text_file", read); err == nil {
		t.Fatal("the server read outside its roots")
	}
	m.AddRoot(tree, "worktree of sub-agent #1 (general-purpose)")
	eventually(t, "the worktree allowed", allowed(tree))
	res, err := call(t, m, "mcp__fs__read_text_file", read)
	if err != nil || res.Output != "from the worktree" {
		t.Fatalf("read in the worktree = %q, %v", res.Output, err)
	}
	m.RemoveRoot(tree)
	eventually(t, "the worktree gone", func() bool { return !allowed(tree)() })
}
