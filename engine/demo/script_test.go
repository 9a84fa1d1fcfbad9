package demo

import (
	"slices"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"
)

func TestTextPiecesKeepEveryCharacter(t *testing.T) {
	if got, want := textPieces("a b  c\nd"), []string{"a ", "b  ", "c\n", "d"}; !slices.Equal(got, want) {
		t.Errorf("short text = %q, want %q", got, want)
	}
	long := strings.Repeat("word, then\nmore ", 300)
	pieces := textPieces(long)
	if len(pieces) > maxTextChunks || strings.Join(pieces, "") != long {
		t.Errorf("long text in %d pieces (max %d), joined equal: %v", len(pieces), maxTextChunks, strings.Join(pieces, "") == long)
	}
	if got := textPieces(""); len(got) != 0 {
		t.Errorf("empty text = %q", got)
	}
}

func TestParsersReadToolResults(t *testing.T) {
	l := parseListing("README.md\ncmd/\ncmd/app/\ncmd/app/main.go\ngo.mod\n… [truncated: 1,204 more entries]")
	if !slices.Equal(l.dirs, []string{"cmd/"}) || !slices.Equal(l.files, []string{"README.md", "go.mod"}) || l.total != 5 {
		t.Errorf("listing = %+v", l)
	}
	if n := omitted("a\n… [truncated: 1,204 more entries]", "entr"); n != 1204 {
		t.Errorf("omitted entries = %d, want 1204", n)
	}
	if n := omitted("a\n… [truncated: 12 more characters]", "match"); n != 0 {
		t.Errorf("a character marker counted as %d matches", n)
	}
	hits := parseHits("a.go:3: x := map[string]int{\"k\": 1}\nnot a hit\nb/c.py:10: # TODO: x")
	want := []hit{{"a.go", 3, `x := map[string]int{"k": 1}`}, {"b/c.py", 10, "# TODO: x"}}
	if !slices.Equal(hits, want) {
		t.Errorf("hits = %+v, want %+v", hits, want)
	}
	if got := parseFileLines("     1\t# Title\n     2\t\n     3\tbody\n"); !slices.Equal(got, []string{"# Title", "body"}) {
		t.Errorf("file lines = %q", got)
	}
	if got := parsePaths("no files match **/x.go"); got != nil {
		t.Errorf("paths of no match = %q", got)
	}
	if got := shallowest([]string{"docs/README.md", "README.md", "a/b/README"}); got != "README.md" {
		t.Errorf("shallowest = %q", got)
	}
}

func TestPickPlanReadsTheFirstLine(t *testing.T) {
	tests := map[string]string{
		"Look for TODO and FIXME notes":                         "notes",
		"Find the entry points\n\nThe person asked: \"x\"":      "entry",
		"Map the layout\n\nThe person asked: \"the main TODO\"": "layout",
		"anything a person typed":                               "layout",
	}
	for prompt, want := range tests {
		if got := pickPlan(prompt).name; got != want {
			t.Errorf("pickPlan(%q) = %s, want %s", prompt, got, want)
		}
	}
}

func TestPlanCallsOnlyOfferedTools(t *testing.T) {
	only := func(names ...string) func(string) bool {
		return func(n string) bool { return slices.Contains(names, n) }
	}
	if call, ok := notesPlan().next(nil, only("find_files", "read_file")); !ok || call.name != "find_files" || call.id != "call_demo_notes_1" {
		t.Errorf("without grep: %+v %v, want the README search", call, ok)
	}
	found := []exchange{{id: "call_demo_notes_1", name: "find_files", output: "README.md"}}
	if call, ok := notesPlan().next(found, only("find_files", "read_file")); !ok || call.args != `{"limit":20,"path":"README.md"}` {
		t.Errorf("after the search: %+v %v, want README.md read", call, ok)
	}
	if call, ok := entryPlan().next(nil, only("read_file")); ok {
		t.Errorf("with nothing found and only read_file: %+v, want the report", call)
	}
}

func TestParseOutcomeReadsTheStatusLine(t *testing.T) {
	denied := parseOutcome(exchange{name: taskTool, args: `{"description":"d","subagent_type":"review"}`,
		output: noText + "\n\nstatus: denied · 0 tools · 0.0s · 0 tokens\nreason: not now"})
	if denied.label != "[review] d" || denied.status != "denied" || denied.reason != "not now" || len(denied.report) != 0 {
		t.Errorf("denied = %+v", denied)
	}
	done := parseOutcome(exchange{name: taskTool, args: `{"description":"d","instructions":"x"}`,
		output: "Found it:\n- a.go\n\nstatus: completed · 2 tools · 0.1s · 10 tokens"})
	if done.label != "[custom] d" || done.status != "completed" || !slices.Equal(done.report, []string{"Found it:", "- a.go"}) {
		t.Errorf("completed = %+v", done)
	}
	failed := parseOutcome(exchange{name: taskTool, output: "Error: unknown subagent_type \"x\"", failed: true})
	if failed.status != "failed" || failed.reason != `unknown subagent_type "x"` {
		t.Errorf("failed = %+v", failed)
	}
}

func TestChildReportNotesMessagesFromThePerson(t *testing.T) {
	c := &conversation{tools: map[string]string{}, messages: []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: "You are Explore."},
		{Role: openai.ChatMessageRoleUser, Content: "Map the layout"},
		{Role: openai.ChatMessageRoleUser, Content: supervisorPrefix + " look at docs too"},
	}}
	got := child(c)
	if len(got.calls) != 0 || !strings.Contains(got.text, `Noted your message: "look at docs too"`) {
		t.Errorf("reply without tools = %+v, want a report noting the message", got)
	}
}

func TestWantsChange(t *testing.T) {
	for asked, want := range map[string]bool{"add a --verbose flag": true, "Fix the failing test": true, "what is this project?": false,
		"look around": false, "what should I change?": false, "": false} {
		if got := wantsChange(asked); got != want {
			t.Errorf("wantsChange(%q) = %v, want %v", asked, got, want)
		}
	}
}

// A child's report says plainly when a tool failed, found nothing or
// returned more than it shows, naming only what the tools returned.
func TestChildReportSaysWhatTheToolsGaveBack(t *testing.T) {
	cases := []struct {
		ex   exchange
		want string
	}{
		{exchange{name: "grep", args: `{"pattern":"x"}`, output: "Error: the path is outside the workspace", failed: true},
			"`grep` failed: the path is outside the workspace"},
		{exchange{name: "web_fetch", output: "one\ntwo\n"}, "`web_fetch` returned 2 lines."},
		{exchange{name: "list_files", output: ""}, "The folder is empty."},
		{exchange{name: "grep", args: `{"pattern":"FIXME"}`, output: "no matches"}, "`FIXME`: none found."},
		{exchange{name: "grep", args: `{"pattern":"TODO"}`, output: "a.go:1: TODO one\na.go:2: TODO two\nb.go:3: TODO three\nc.go:4: TODO four\n… [truncated: 7 more matches]"},
			"`TODO`: 11 lines in at least 3 files: `a.go:1: TODO one`; `a.go:2: TODO two`; `b.go:3: TODO three` and 8 more."},
		{exchange{name: "read_file", args: `{"path":"empty.txt"}`, output: ""}, "`empty.txt` is empty."},
		{exchange{name: "find_files", args: `{"pattern":"**/*.md"}`, output: "a.md\nb.md\nc.md\nd.md\ne.md\nf.md\ng.md"},
			"`**/*.md`: 7 files (`a.md`, `b.md`, `c.md`, `d.md`, `e.md`, `f.md`, … 1 more)."},
		{exchange{name: "find_files", args: `{"pattern":"*.zig"}`, output: "no files match *.zig"}, "`*.zig`: no files."},
	}
	for _, c := range cases {
		if got := strings.Join(describe(c.ex), "\n"); got != c.want {
			t.Errorf("%s %s:\n got %s\nwant %s", c.ex.name, c.ex.args, got, c.want)
		}
	}
	long := clip(strings.Repeat("é", 200), 10)
	if long != strings.Repeat("é", 9)+"…" {
		t.Errorf("clip = %q", long)
	}
}
