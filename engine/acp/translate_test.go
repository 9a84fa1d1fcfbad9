package acp

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// wire is updates as the editor reads them, one JSON object a line.
func wire(t *testing.T, updates []any) string {
	t.Helper()
	var lines []string
	for _, u := range updates {
		data, err := json.Marshal(u)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(data))
	}
	return strings.Join(lines, "\n")
}

var (
	at       = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	mainMeta = event.Meta{Agent: event.MainAgent, Time: at}
	explorer = event.Meta{Agent: "c1", Parent: event.MainAgent, AgentType: "Explore", Description: "find auth", Time: at}
)

func TestEditorIsToldWhatThePersonWouldBe(t *testing.T) {
	cases := []struct {
		name string
		ev   event.Event
		want string // "" for no update
	}{
		{"a notice, trimmed", event.Notice{Meta: mainMeta, Text: "  session saved \n"}, `{"sessionUpdate":"notice","severity":"info","title":"session saved"}`},
		{"a child's notice names the child", event.Notice{Meta: explorer, Text: "slot freed"}, `"title":"[Explore] slot freed"`},
		{"an empty notice", event.Notice{Meta: mainMeta, Text: " \n "}, ""},
		{"a retry", event.Retrying{Meta: mainMeta, Attempt: 1, Attempts: 3, At: at.Add(30 * time.Second), Reason: "rate limited"},
			`{"sessionUpdate":"notice","severity":"warning","title":"retrying in 30s (1/3) · rate limited"}`},
		{"compaction starts", event.CompactionStarted{Meta: mainMeta, Auto: true}, `"title":"compacting the conversation"`},
		{"compaction fails", event.Compacted{Meta: mainMeta, Error: "the summary was empty"}, `"severity":"warning","title":"compaction failed: the summary was empty"`},
		{"compaction done", event.Compacted{Meta: mainMeta, Replaced: 12}, `"severity":"info","title":"compacted 12 messages into a summary"`},
		{"a turn a background result started", event.TurnStarted{Meta: mainMeta, Wake: true, Prompt: "[Explore] find auth finished"}, `"title":"[Explore] find auth finished"`},
		{"the person's own turn", event.TurnStarted{Meta: mainMeta, Prompt: "hello"}, ""},
		{"a child's text", event.TextDelta{Meta: explorer, Text: "child thinking"}, ""},
		{"a child's thoughts", event.ReasoningDelta{Meta: explorer, Text: "hmm"}, ""},
		{"a mode the editor set itself", event.ModeChanged{Meta: mainMeta, Mode: "plan"}, ""},
		{"usage with a known cost", event.UsageReported{Meta: mainMeta, Request: event.Usage{PromptTokens: 300, CompletionTokens: 20},
			Total: event.Usage{Cost: 0.25, CostKnown: true}}, `{"sessionUpdate":"usage_update","used":320,"size":1000,"cost":{"amount":0.25,"currency":"USD"}}`},
		{"usage with no cost", event.UsageReported{Meta: mainMeta, Request: event.Usage{PromptTokens: 10}}, `{"sessionUpdate":"usage_update","used":10,"size":1000}`},
		{"a child's usage", event.UsageReported{Meta: explorer, Request: event.Usage{PromptTokens: 10}}, ""},
		{"an answer to a question the editor never saw", event.ApprovalResolved{Meta: mainMeta, RequestID: "a9"}, ""},
		{"a call the editor never saw ends", event.ToolFinished{Meta: mainMeta, CallID: "ghost", Output: "x"}, ""},
		{"a child the editor never saw goes to the background", event.AgentBackgrounded{Meta: explorer}, ""},
		{"a tool of a child the editor never saw", event.ToolStarted{Meta: explorer, CallID: "x", Title: "read_file a"}, ""},
	}
	for _, c := range cases {
		tr := newTranslator("/ws", func() int64 { return 1000 })
		got := wire(t, tr.live(c.ev))
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: the editor got %s; want %s", c.name, got, c.want)
		}
	}
	if got := newTranslator("/ws", func() int64 { return 0 }).live(event.UsageReported{Meta: mainMeta, Request: event.Usage{PromptTokens: 10}}); got != nil {
		t.Errorf("usage with an unknown context window: %v", wire(t, got))
	}
}

// A child waiting for a slot is shown at once, as a call of its own when
// no task call of the main agent stands for it; going to the background
// says so; its calls still open when it ends are ended with it.
func TestQueuedChildIsShownAndWhatItLeftOpenEndsWithIt(t *testing.T) {
	tr := newTranslator("/ws", nil)
	queued := wire(t, tr.live(event.AgentQueued{Meta: explorer, Position: 2}))
	want := `{"sessionUpdate":"tool_call","toolCallId":"baton-1-c1","title":"[Explore] find auth","name":"task","kind":"think","status":"in_progress"}` + "\n" +
		`{"sessionUpdate":"tool_call_update","toolCallId":"baton-1-c1","status":"in_progress","content":[{"type":"content","content":{"type":"text","text":"[Explore] find auth - waiting for a free slot (#2 in line)"}}]}`
	if queued != want {
		t.Errorf("a queued child:\n%s\nwant\n%s", queued, want)
	}
	started := explorer
	started.Time = at.Add(time.Second)
	if got := wire(t, tr.live(event.AgentStarted{Meta: started})); !strings.Contains(got, `"toolCallId":"baton-1-c1"`) || !strings.Contains(got, "[Explore] find auth ... 0 tools, 0.0s") {
		t.Errorf("the child starting: %s", got)
	}
	later := started
	later.Time = at.Add(3 * time.Second)
	if got := wire(t, tr.live(event.AgentBackgrounded{Meta: later})); !strings.Contains(got, "0 tools, 2.0s (in the background)") {
		t.Errorf("the child going to the background: %s", got)
	}
	// The child asks to run a command: the editor is shown the call.
	req := event.NewApprovalRequest("q1", event.ApproveTool)
	req.CallID, req.Tool, req.Args, req.Preview = "k1", "run_command", `{"command":"make"}`, "make"
	announce, _ := tr.permissionCall(event.ApprovalRequested{Meta: later, Request: req})
	if got := wire(t, announce); !strings.Contains(got, `"title":"[Explore] find auth: run_command","name":"run_command","kind":"execute","status":"pending"`) {
		t.Errorf("a child's call announced: %s", got)
	}
	finished := wire(t, tr.live(event.AgentFinished{Meta: later, Status: event.StatusTimedOut, Reason: "120 s passed", Stats: event.Stats{ToolCalls: 1, Duration: 2 * time.Second}}))
	lines := strings.Split(finished, "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"toolCallId":"baton-1-c1","status":"failed"`) || !strings.Contains(lines[0], "[Explore] find auth - timed out (1 tool, 2.0s): 120 s passed") ||
		lines[1] != `{"sessionUpdate":"tool_call_update","toolCallId":"baton-2-k1","status":"failed"}` {
		t.Errorf("the child ending with a call open:\n%s", finished)
	}
}

// A loaded session whose record ends mid-call (baton stopped) shows the
// calls and children it left open as failed, so the editor shows no
// spinner forever.
func TestReplayEndsWhatTheRecordLeftOpen(t *testing.T) {
	tr := newTranslator("/ws", nil)
	var out []any
	for _, ev := range []event.Event{
		event.TurnStarted{Meta: mainMeta, Prompt: "go"},
		event.ApprovalResolved{Meta: mainMeta, RequestID: "q"},
		event.ToolStarted{Meta: mainMeta, CallID: "r1", Name: "read_file", Title: "read_file a.go", Args: `{"path":"a.go","offset":-4}`},
		event.AgentStarted{Meta: explorer},
	} {
		out = append(out, tr.replay(ev)...)
	}
	if got := wire(t, out); !strings.Contains(got, `"locations":[{"path":"/ws/a.go"}]`) {
		t.Errorf("a replayed read: %s", got)
	}
	closed := wire(t, tr.closeOpen())
	for _, want := range []string{`"toolCallId":"baton-1-r1","status":"failed","content":[{"type":"content","content":{"type":"text","text":"baton stopped before this call finished"}}]`,
		`"toolCallId":"baton-2-c1","status":"failed","content":[{"type":"content","content":{"type":"text","text":"[Explore] find auth - interrupted"}}]`} {
		if !strings.Contains(closed, want) {
			t.Errorf("what the record left open:\n%s\nlacks %s", closed, want)
		}
	}
	if again := tr.closeOpen(); len(again) != 0 {
		t.Errorf("closed twice: %s", wire(t, again))
	}
}

func TestToolCallsCarryKindLocationAndBoundedOutput(t *testing.T) {
	kinds := map[string]string{"read_file": "read", "list_files": "search", "find_files": "search", "grep": "search", "edit_file": "edit",
		"run_command": "execute", "web_fetch": "fetch", "task_wait": "think", "exit_plan_mode": "switch_mode", "mcp__docs__search": "other"}
	for name, want := range kinds {
		if got := kindOf(name); got != want {
			t.Errorf("kind of %s = %q, want %q", name, got, want)
		}
	}
	tr := newTranslator("/ws", nil)
	// A model's arguments that are no JSON are shown without raw input or
	// a location; an absolute path is kept, cleaned.
	odd := wire(t, tr.live(event.ToolStarted{Meta: mainMeta, CallID: "g1", Name: "grep", Title: "grep", Args: `{"path":`}))
	if strings.Contains(odd, "rawInput") || strings.Contains(odd, "locations") {
		t.Errorf("a call with broken arguments: %s", odd)
	}
	abs := wire(t, tr.live(event.ToolStarted{Meta: mainMeta, CallID: "g2", Name: "read_file", Title: "read", Args: `{"path":"/etc/../etc/hosts","offset":7}`}))
	if !strings.Contains(abs, `"locations":[{"path":"/etc/hosts","line":7}]`) {
		t.Errorf("an absolute path: %s", abs)
	}
	// Output past the bound is cut on a character boundary and says how
	// much was left out.
	long := strings.Repeat("a", maxShownOutput-1) + strings.Repeat("é", 100)
	got := tr.live(event.ToolFinished{Meta: mainMeta, CallID: "g2", Output: long})
	shown := got[0].(toolCall).Content[0].Content.Text
	if !utf8.ValidString(shown) || !strings.HasPrefix(shown, strings.Repeat("a", maxShownOutput-1)+"\n… [") || !strings.HasSuffix(shown, " more bytes]") {
		t.Errorf("long output shown as %q", shown[maxShownOutput-20:])
	}
	if !strings.Contains(shown, "[200 more bytes]") {
		t.Errorf("the cut does not count what was left out: %q", shown[maxShownOutput-5:])
	}
}
