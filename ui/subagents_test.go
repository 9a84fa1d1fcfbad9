package ui

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// command types a command line and runs exactly it.
func (d *driver) command(line string) {
	d.t.Helper()
	d.typeText(line)
	if d.m.input.PopupOpen() {
		d.keys("esc") // close the popup so enter runs what was typed
	}
	d.keys("enter")
}

// twoChildren has explore-1 done and review-2 running.
func twoChildren(t *testing.T) *driver {
	t.Helper()
	d := newDriver(t, 140, 40)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	d.spawn(explore)
	d.spawn(review)
	d.finish(explore, event.StatusCompleted, "")
	return d
}

func TestSubagentsListAndInfo(t *testing.T) {
	d := twoChildren(t)
	d.command("/subagents list")
	screen := d.screen()
	for _, want := range []string{"ID         #  TYPE     DESCRIPTION             STATUS   TOOLS  TIME  TOKENS  COST",
		"explore-1  1  Explore  map the project layout  done     8      5.1s  3.2k    $0.0040",
		"review-2   2  Review   look for TODOs          running  1      2.0s  1.2k    $0.0021"} {
		if !strings.Contains(screen, want) {
			t.Errorf("/subagents list lacks %q:\n%s", want, screen)
		}
	}
	d.command("/subagents info 1")
	screen = d.screen()
	for _, want := range []string{"#1 explore-1 · [Explore] map the project layout", "status      done", "model       gpt-4.1-mini",
		"limits      15 steps · 2m0s timeout", "8 tool calls · 4 of 15 steps · 3.2k tokens (3.0k in, 200 out) · $0.0040",
		"transcript  /state/s1/explore-1.jsonl", "started     2025-03-14",
		"sandbox     workspace-write · network off"} {
		if !strings.Contains(screen, want) {
			t.Errorf("/subagents info lacks %q:\n%s", want, screen)
		}
	}
}

func TestSubagentsStopAndSend(t *testing.T) {
	d := twoChildren(t)
	d.command("/subagents stop review-2")
	d.command("/subagents stop all")
	if stopped, _ := d.s.calls(); !reflect.DeepEqual(stopped, []event.AgentID{"review-2", "all"}) {
		t.Errorf("stopped %v", stopped)
	}
	d.command("/subagents send #2 look in vendor/ too")
	if _, sent := d.s.calls(); !reflect.DeepEqual(sent, []string{"review-2: look in vendor/ too"}) {
		t.Errorf("sent %q", sent)
	}
}

func TestSubagentsBadArguments(t *testing.T) {
	d := twoChildren(t)
	for line, want := range map[string]string{
		"/subagents stop nine":           `no sub-agent "nine"; /subagents list shows the ids and numbers`,
		"/subagents stop 7":              "no sub-agent #7 in this session",
		"/subagents stop":                "name a sub-agent by id or number",
		"/subagents stop 1":              "#1 explore-1 already ended (done)",
		"/subagents send 2":              "the message is missing",
		"/subagents log":                 "name a sub-agent by id or number",
		"/subagents log 1 ten":           `"ten" is neither a limit nor "tools"`,
		"/subagents log 1 0":             "the limit must be 1 or more, got 0",
		"/subagents log 2":               "/subagents log: read transcript of review-2: no such file",
		"/subagents info":                "name a sub-agent by id or number",
		"/subagents info 1 2":            "takes one id or number",
		"/subagents frob":                "unknown command /subagents frob; use list, stop, log, info, send, diff, merge, resume or retry",
		"/subagents stop explore-1 more": "takes one id, number or all",
	} {
		d.command(line)
		if said := d.m.status.Text(); !strings.Contains(said, want) || d.m.status.Level() != status.Error {
			t.Errorf("%s: status %q, want an error with %q", line, said, want)
		}
	}
	if stopped, sent := d.s.calls(); len(stopped)+len(sent) != 0 {
		t.Errorf("bad commands reached the session: stopped %v, sent %v", stopped, sent)
	}
}

// recorded is a transcript record holding an event of explore-1.
func recorded(t *testing.T, ev event.Event) transcript.Record {
	t.Helper()
	data, err := event.MarshalEvent(ev)
	if err != nil {
		t.Fatal(err)
	}
	return transcript.Record{Time: t0, Kind: transcript.KindEvent, Agent: "explore-1", Data: data}
}

func TestSubagentsLogReadsTheTranscript(t *testing.T) {
	d := twoChildren(t)
	m := explore.meta(0)
	d.s.records = map[event.AgentID][]transcript.Record{"explore-1": {
		{Time: t0, Kind: transcript.KindMessage, Agent: "explore-1", Data: json.RawMessage(`{"role":"system","content":"You are Explore."}`)},
		recorded(t, event.AgentStarted{Meta: m, Prompt: "Map the layout."}),
		recorded(t, event.ToolStarted{Meta: m, CallID: "c1", Name: "list_files", Args: `{"path":"."}`, Title: "list_files ."}),
		recorded(t, event.ToolFinished{Meta: m, CallID: "c1", Name: "list_files", Summary: "3 entries", Output: "cmd/\nengine/\nui/"}),
		recorded(t, event.MessageDone{Meta: m, Text: "Three folders: cmd, engine, ui."}),
	}}
	d.command("/subagents log explore-1")
	screen := d.screen()
	if !strings.Contains(screen, "Log of #1 explore-1") || !strings.Contains(screen, "› Map the layout.") || !strings.Contains(screen, "● Three folders") {
		t.Errorf("the log lacks the messages:\n%s", screen)
	}
	if strings.Contains(screen, "You are Explore") || strings.Contains(screen, "list_files") {
		t.Errorf("the log shows the system prompt or tool calls unasked:\n%s", screen)
	}
	d.command("/subagents log 1 1 tools")
	screen = d.screen()
	if !strings.Contains(screen, "… 2 earlier entries before these") || !strings.Contains(screen, "Three folders") {
		t.Errorf("a limit of 1 does not keep the last entry only:\n%s", screen)
	}
	d.command("/subagents log 1 tools")
	if screen := d.screen(); !strings.Contains(screen, "⏺ list_files . (3 entries)") || !strings.Contains(screen, "⎿ cmd/") {
		t.Errorf("tools does not show the calls and results:\n%s", screen)
	}
}

func TestSubagentsCompletion(t *testing.T) {
	d := twoChildren(t)
	d.typeText("/subagents st")
	d.keys("tab")
	if got := d.m.input.Value(); got != "/subagents stop " {
		t.Fatalf("tab completed to %q", got)
	}
	if screen := d.screen(); !strings.Contains(screen, "review-2") || !strings.Contains(screen, "all") || strings.Contains(screen, "explore-1  ") {
		t.Errorf("stop offers other than the running children and all:\n%s", screen)
	}
	d.typeText("r")
	d.keys("enter") // the only match, which runs at once
	if stopped, _ := d.s.calls(); !reflect.DeepEqual(stopped, []event.AgentID{"review-2"}) {
		t.Errorf("choosing review-2 stopped %v", stopped)
	}
}

func TestAgentsListsTypesAndWarnings(t *testing.T) {
	s := newFakeSession()
	opts := Options{Theme: "dark", Types: []agenttypes.Type{
		{Name: "explore", DisplayName: "Explore", Description: "Finds code fast.", Tools: []string{"read_file", "grep"}, Source: "built-in", MaxSteps: 15},
		{Name: "docs", DisplayName: "docs", Description: "Writes docs.", Tools: []string{"read_file"}, Model: "gpt-4.1-mini",
			Timeout: 90 * time.Second, Source: ".claude/agents/docs.md", DroppedTools: []string{"WebSearch"}},
	}, TypeWarnings: []string{".baton/agents/bad.md:3: skipped: no description"}}
	d := newDriverFor(t, s, opts, 120, 40)
	d.command("/agents")
	screen := d.screen()
	for _, want := range []string{"Explore (explore) · built-in", "tools   read_file grep", "model   inherit (the sub-agent model) · limits 15 steps · 120s default",
		"docs (docs) · .claude/agents/docs.md", "model   gpt-4.1-mini · limits default steps · 90s", "dropped WebSearch (baton has no such tool; the agent runs without it)",
		"⚠ .baton/agents/bad.md:3: skipped: no description"} {
		if !strings.Contains(screen, want) {
			t.Errorf("/agents lacks %q:\n%s", want, screen)
		}
	}
}

func TestInitAsksForAgentsMD(t *testing.T) {
	d := newDriver(t, 100, 30)
	d.command("/init")
	if got := d.s.prompts(); len(got) != 1 || !strings.Contains(got[0], "AGENTS.md") || !strings.Contains(got[0], "build, test and lint") {
		t.Errorf("/init submitted %q", got)
	}
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "x"})
	d.command("/init")
	if len(d.s.prompts()) != 1 || d.m.input.Queued() != 1 {
		t.Errorf("/init during a turn is not queued")
	}
}

func TestSubagentsListAtEightyColumnsKeepsDescriptionAndNumbers(t *testing.T) {
	d := newDriver(t, 80, 40)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	long := kid{"general-purpose-1", "general-purpose", "check every handler for missing input validation"}
	d.spawn(long)
	d.finish(long, event.StatusCompleted, "")
	d.command("/subagents list")
	screen := d.screen()
	for _, want := range []string{"  general-purpose-1  1  ", "  check every han", "done", "5.1s", "3.2k", "$0.0040"} {
		if !strings.Contains(screen, want) {
			t.Errorf("/subagents list at 80 columns lacks %q:\n%s", want, screen)
		}
	}
	d.checkFits()
}
