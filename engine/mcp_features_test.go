package engine

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/mcp"
	"github.com/seed-e4e525a6/baton/engine/mcp/mcptest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Models the catalogue knows: one takes images, one does not.
const (
	visionModel   = "gpt-4.1"
	textOnlyModel = "o3-mini"
)

// dotURL is mcptest's picture as the data URL a request carries.
func dotURL() string {
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(mcptest.DotPNG())
}

// imageParts are the image URLs of a message, in order.
func imageURLs(m openai.ChatCompletionMessage) []string {
	var out []string
	for _, p := range m.MultiContent {
		if p.Type == openai.ChatMessagePartTypeImageURL {
			out = append(out, p.ImageURL.URL)
		}
	}
	return out
}

func TestToolImagesReachAModelThatTakesImages(t *testing.T) {
	s, srv := newTestSession(t, callThenAnswer("mcp__srv__image", `{}`), func(c *Config) {
		withMCP(t)(c)
		c.Model = visionModel
	})
	runTurn(t, s, "look", nil)
	req := srv.Requests()[1]
	if err := req.StrictHistory(); err != nil {
		t.Fatal(err)
	}
	msgs := req.Body.Messages
	tool, bridge, images := msgs[len(msgs)-3], msgs[len(msgs)-2], msgs[len(msgs)-1]
	want := fmt.Sprintf("a red dot\n[image: image/png, %d bytes]\n[the images of this result follow in a message after the results]", len(mcptest.DotPNG()))
	if tool.Role != "tool" || tool.Content != want {
		t.Fatalf("tool message %q, want %q", tool.Content, want)
	}
	// No user message right after a tool result: Mistral refuses that.
	if bridge.Role != "assistant" || bridge.Content != "Some of these results are images; they follow." || len(bridge.ToolCalls) != 0 {
		t.Fatalf("bridge %+v", bridge)
	}
	if images.Role != "user" || len(images.MultiContent) != 2 || images.MultiContent[0].Text != "Images returned by mcp__srv__image (call c1):" ||
		!slices.Equal(imageURLs(images), []string{dotURL()}) {
		t.Fatalf("image message %+v", images)
	}
	// The raw body holds the spelling every provider takes.
	contains(t, "raw request", string(req.Raw), `{"type":"image_url","image_url":{"url":"`+dotURL()+`"}}`)
}

func TestTextOnlyModelGetsTheImagePlaceholder(t *testing.T) {
	s, srv := newTestSession(t, callThenAnswer("mcp__srv__image", `{}`), func(c *Config) {
		withMCP(t)(c)
		c.Model = textOnlyModel
	})
	runTurn(t, s, "look", nil)
	msgs := srv.Requests()[1].Body.Messages
	last := msgs[len(msgs)-1]
	if last.Role != "tool" || last.Content != fmt.Sprintf("a red dot\n[image: image/png, %d bytes]", len(mcptest.DotPNG())) {
		t.Fatalf("last message %+v", last)
	}
	if strings.Contains(string(srv.Requests()[1].Raw), "image_url") {
		t.Fatal("a text-only model was sent an image")
	}
}

func TestSwitchingToATextOnlyModelDropsEarlierImages(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.Index == 0 {
			w.ToolCalls(llmtest.Call{ID: "c1", Name: "mcp__srv__image", Args: `{}`})
			return
		}
		w.Text("done")
	}, func(c *Config) {
		withMCP(t)(c)
		c.Model = visionModel
	})
	runTurn(t, s, "look", nil)
	s.SetModel(textOnlyModel)
	runTurn(t, s, "and now?", nil)
	req := srv.Requests()[2]
	if strings.Contains(string(req.Raw), "image_url") {
		t.Fatal("the text-only model was sent the earlier image")
	}
	if !slices.ContainsFunc(req.Body.Messages, func(m openai.ChatCompletionMessage) bool {
		return m.Content == "Images returned by mcp__srv__image (call c1):\n[image not shown: this model takes no images]"
	}) {
		t.Fatalf("messages %+v", req.Body.Messages)
	}
}

func TestServerInstructionsJoinTheSystemPrompt(t *testing.T) {
	probe := agenttypes.Type{Name: "probe", Description: "p", Tools: []string{"read_file", "mcp__srv__echo"}}
	plain := agenttypes.Type{Name: "plain", Description: "p", Tools: []string{"read_file"}}
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case !isChild(r) && len(toolMessages(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "t1", Name: "task", Args: `{"description":"a","prompt":"With.","subagent_type":"probe"}`},
				llmtest.Call{ID: "t2", Name: "task", Args: `{"description":"b","prompt":"Without.","subagent_type":"plain"}`})
		default:
			w.Text("ok")
		}
	}, func(c *Config) { withMCP(t)(c); withTypes(probe, plain)(c) })
	runTurn(t, s, "go", nil)
	section := "# Instructions from MCP servers"
	main := srv.Requests()[0].System()
	contains(t, "main system prompt", main, section)
	contains(t, "main system prompt", main, "## MCP server srv\n\n"+mcptest.Instructions)
	contains(t, "child with the server's tool", childByPrompt(srv.Requests(), "With.")[0].System(), mcptest.Instructions)
	if got := childByPrompt(srv.Requests(), "Without.")[0].System(); strings.Contains(got, section) {
		t.Fatalf("a child without the server's tools got its instructions:\n%s", got)
	}
}

func TestMCPPromptCommandIsSentAsItsText(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("hello Paris") }, withMCP(t))
	log := runTurn(t, s, "/mcp__srv__greet Paris", nil)
	if got := srv.Requests()[0].LastUser(); got != "Write a plain greeting for Paris." {
		t.Fatalf("prompt sent %q", got)
	}
	if log.End.Status != event.StatusCompleted || eventsOf[event.TurnStarted](log)[0].Prompt != "/mcp__srv__greet Paris" {
		t.Fatalf("turn %+v", log.End)
	}

	log = runTurn(t, s, "/mcp__srv__greet", nil)
	errs := eventsOf[event.ErrorOccurred](log)
	if log.End.Status != event.StatusFailed || len(errs) != 1 || errs[0].Message != "/mcp__srv__greet needs city; usage: /mcp__srv__greet CITY [STYLE]" {
		t.Fatalf("turn %+v, errors %+v", log.End, errs)
	}
	log = runTurn(t, s, "/mcp__srv__nothing", nil)
	if log.End.Status != event.StatusFailed || len(srv.Requests()) != 1 {
		t.Fatalf("unknown prompt: turn %+v, %d requests", log.End, len(srv.Requests()))
	}
}

func TestMCPPromptWithAPictureReachesAVisionModel(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("red") }, func(c *Config) {
		withMCP(t)(c)
		c.Model = visionModel
	})
	runTurn(t, s, "/mcp__srv__show_dot", nil)
	msgs := srv.Requests()[0].Body.Messages
	last := msgs[len(msgs)-1]
	if !slices.Equal(imageURLs(last), []string{dotURL()}) || !strings.HasPrefix(last.MultiContent[0].Text, "User:\nWhat colour is this dot?") {
		t.Fatalf("prompt message %+v", last)
	}
}

func TestResourceMentionsAreAttached(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("ok") }, withMCP(t))
	prompt := "Summarise @srv:" + mcptest.NoteURI + ", mail me@example.com:25 and see @srv:test://nothing/here."
	log := runTurn(t, s, prompt, nil)
	want := prompt + "\n\n<mcp-resource server=\"srv\" uri=\"" + mcptest.NoteURI + "\">\n" + mcptest.NoteText + "\n</mcp-resource>"
	if got := srv.Requests()[0].LastUser(); got != want {
		t.Fatalf("message sent %q, want %q", got, want)
	}
	var notes []string
	for _, n := range eventsOf[event.Notice](log) {
		notes = append(notes, n.Text)
	}
	if len(notes) != 2 || notes[0] != "attached @srv:"+mcptest.NoteURI+" (1 line)" || !strings.HasPrefix(notes[1], "@srv:test://nothing/here not attached: read test://nothing/here from MCP server srv") {
		t.Fatalf("notices %q", notes)
	}
}

func TestResourceToolsRunWithoutAsking(t *testing.T) {
	s, srv := newTestSession(t, callThenAnswer("read_mcp_resource", `{"server":"srv","uri":"`+mcptest.NoteURI+`"}`), func(c *Config) {
		withMCP(t)(c)
		c.Mode = permission.Headless
	})
	runTurn(t, s, "read the note", nil)
	reqs := srv.Requests()
	if names := reqs[0].ToolNames(); !slices.Contains(names, "list_mcp_resources") || !slices.Contains(names, "read_mcp_resource") {
		t.Fatalf("tools offered %v", names)
	}
	if got := toolMessages(reqs[1]); len(got) != 1 || got[0] != mcptest.NoteText {
		t.Fatalf("tool result %q", got)
	}
}

func TestWorktreeChildIsARootWhileItRuns(t *testing.T) {
	writer := agenttypes.Type{Name: "writer", Description: "w", Tools: []string{"write_file", "mcp__srv__roots"}}
	var m *mcp.Manager
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case !isChild(r) && len(toolMessages(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "a", Name: "task", Args: `{"description":"look","prompt":"roots?","subagent_type":"writer","isolation":"worktree"}`})
		case !isChild(r):
			w.Text("done")
		case len(toolMessages(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "r", Name: "mcp__srv__roots", Args: `{}`})
		default:
			w.Text("seen")
		}
	}, func(c *Config) {
		c.Worktrees.Root = t.TempDir()
		writeFile(t, c.Workspace, "a.txt", "a\n")
		gitRepo(t, c.Workspace)
		m = startMCP(t, mcp.Options{Dir: c.Workspace}, mcp.Server{Name: "srv", URL: mcptest.HTTP(t, nil), Source: "test"})
		withTypes(writer)(c)
		c.MCP = m
	})
	log := runTurn(t, s, "go", nil)
	started := eventsOf[event.AgentStarted](log)
	got := toolMessages(childByPrompt(srv.Requests(), "roots?")[1])
	if len(started) != 1 || len(got) != 1 {
		t.Fatalf("started %+v, roots %q", started, got)
	}
	lines := strings.Split(got[0], "\n")
	wantTree := fmt.Sprintf("worktree of sub-agent #%d (writer)", started[0].Number)
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "file://"+s.Workspace()+" workspace ") || !strings.HasSuffix(lines[1], " "+wantTree) ||
		strings.HasPrefix(lines[1], "file://"+s.Workspace()+" ") {
		t.Fatalf("roots the child's server saw: %q", lines)
	}
	after, err := m.Tools()[slices.IndexFunc(m.Tools(), func(tl tools.Tool) bool { return tl.Name() == "mcp__srv__roots" })].Run(context.Background(), json.RawMessage(`{}`))
	if err != nil || strings.Contains(after.Output, "worktree") {
		t.Fatalf("roots after the child ended: %q, %v", after.Output, err)
	}
}

func TestWhatACutServerSentIsNoticed(t *testing.T) {
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("ok") }, func(c *Config) {
		c.MCP = startMCP(t, mcp.Options{}, mcp.Server{Name: "bad", URL: mcptest.ServeHTTP(t, mcptest.NewHostileServer(), nil), Source: "test"})
	})
	want := fmt.Sprintf("MCP server bad: the description of mcp__bad__long has %d characters; the model gets the first 16000", mcptest.LongDescription)
	deadline := time.After(testTimeout)
	for {
		select {
		case ev := <-s.Events():
			if n, ok := ev.(event.Notice); ok && n.Text == want {
				return
			}
		case <-deadline:
			t.Fatalf("no notice %q", want)
		}
	}
}

func TestContextOverflowElidesOldPictures(t *testing.T) {
	pictures := func(r *llmtest.Request) int {
		n := 0
		for _, m := range r.Body.Messages {
			n += len(imageURLs(m))
		}
		return n
	}
	const keptPictures = 4 // an agent over its context keeps the newest four
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case pictures(r) > keptPictures:
			w.Error(400, `{"error":{"message":"This model's maximum context length is 8192 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}`)
		case len(toolMessages(r)) < 6:
			w.ToolCalls(llmtest.Call{ID: fmt.Sprintf("c%d", len(toolMessages(r))), Name: "mcp__srv__image", Args: `{}`})
		default:
			w.Text("fits now")
		}
	}, func(c *Config) {
		withMCP(t)(c)
		c.Model = visionModel
	})
	log := runTurn(t, s, "look a lot", nil)
	last := srv.Requests()[len(srv.Requests())-1]
	if log.End.Status != event.StatusCompleted || pictures(last) != keptPictures || !strings.Contains(string(last.Raw), "[image elided to fit the context window]") {
		t.Fatalf("end %+v, %d pictures in the last request", log.End, pictures(last))
	}
	if err := last.StrictHistory(); err != nil {
		t.Fatal(err)
	}
}

func TestServerNotesAreToldOnceAndBounded(t *testing.T) {
	var n mcpNotes
	st := event.MCPServer{Name: "big"}
	for i := range 7 {
		st.Warnings = append(st.Warnings, fmt.Sprintf("cut %d", i))
	}
	got := n.untold([]event.MCPServer{st})
	want := []string{"MCP server big: cut 0", "MCP server big: cut 1", "MCP server big: cut 2", "MCP server big: cut 3", "MCP server big: cut 4",
		"MCP server big: 2 more notes; /mcp lists them"}
	if !slices.Equal(got, want) || n.pending(st) {
		t.Fatalf("told %q", got)
	}
	if again := n.untold([]event.MCPServer{st}); len(again) != 0 {
		t.Fatalf("told again: %q", again)
	}
}

func TestHugeMentionedResourceIsBounded(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("ok") }, func(c *Config) {
		c.MCP = startMCP(t, mcp.Options{}, mcp.Server{Name: "bad", URL: mcptest.ServeHTTP(t, mcptest.NewHostileServer(), nil), Source: "test"})
		c.Limits.ToolOutputChars = 1000
	})
	runTurn(t, s, "read @bad:"+mcptest.HugeURI, nil)
	got := srv.Requests()[0].LastUser()
	if len(got) > 2000 || !strings.Contains(got, fmt.Sprintf("… [truncated: %d more characters]", mcptest.HugeSize/5*5-1000)) {
		t.Fatalf("attachment of %d characters: …%q", len(got), got[max(0, len(got)-120):])
	}
}

func TestResumedConversationKeepsItsPictures(t *testing.T) {
	script := func(r *llmtest.Request, w *llmtest.Writer) {
		if r.LastUser() == "look" {
			w.ToolCalls(llmtest.Call{ID: "c1", Name: "mcp__srv__image", Args: `{}`})
			return
		}
		w.Text("seen")
	}
	store, workspace, dir := newRecorded(t, nil)
	mcpServer := withMCP(t)
	first, _ := newTestSession(t, script, func(c *Config) {
		recordTo(workspace, dir)(c)
		mcpServer(c)
		c.Model = visionModel
	})
	runTurn(t, first, "look", nil)
	first.Close()
	again, err := store.Latest(workspace)
	if err != nil {
		t.Fatal(err)
	}
	second, srv := newTestSession(t, script, func(c *Config) {
		recordTo(workspace, again)(c)
		mcpServer(c)
		c.Model = visionModel
	})
	runTurn(t, second, "and again?", nil)
	req := srv.Requests()[0]
	if err := req.StrictHistory(); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(req.Body.Messages, func(m openai.ChatCompletionMessage) bool { return slices.Equal(imageURLs(m), []string{dotURL()}) }) {
		t.Fatalf("the resumed history lost the picture: %+v", req.Body.Messages)
	}
}
