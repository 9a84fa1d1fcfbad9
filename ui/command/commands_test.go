package command

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/ui/convo"
	"github.com/seed-e4e525a6/baton/ui/overlay/modelpick"
	"github.com/seed-e4e525a6/baton/ui/overlay/pick"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// /clear and /compact refuse while a turn runs; idle, they ask the
// session in a Cmd, and a failure is said.
func TestClearAndCompact(t *testing.T) {
	h := newHarness(t, Options{})
	for _, line := range []string{"/clear", "/compact"} {
		if msgs := h.run(line, true); len(msgs) != 0 || !strings.Contains(h.status.Text(), "a turn is running") {
			t.Errorf("%s while busy: %v, %q", line, msgs, h.status.Text())
		}
	}
	if r := h.result("/clear"); !r.Cleared {
		t.Errorf("/clear: %+v", r)
	}
	h.run("/compact the API", false)
	if strings.Join(h.s.calls, ";") != "clear;compact the API" {
		t.Errorf("calls %v", h.s.calls)
	}
	h.s.err = errors.New("busy")
	for line, want := range map[string]string{"/clear": "clear: busy", "/compact": "compact: busy"} {
		if msgs := h.run(line, false); len(msgs) != 1 || msgs[0] != (status.Said{Level: status.Error, Text: want}) {
			t.Errorf("%s failing: %v", line, msgs)
		}
	}
}

// /copy copies the last answer or its last code block through Copy, and
// refuses what there is not, or what is too big for a terminal.
func TestCopy(t *testing.T) {
	var copied []string
	h := newHarness(t, Options{Copy: func(text string) error { copied = append(copied, text); return nil }})
	if h.run("/copy", false); !strings.Contains(h.status.Text(), "no last answer yet") {
		t.Errorf("with no answer: %q", h.status.Text())
	}
	h.answers = []string{"```go\nfmt.Println(1)\n```", "Done.\n\n~~~sh\ngo test\n~~~\n"}
	if r := h.result("/copy"); r.Say != "copied the last answer (24 characters) to the clipboard via OSC 52" {
		t.Errorf("/copy said %q", r.Say)
	}
	h.result("/copy code")
	if len(copied) != 2 || copied[1] != "go test" {
		t.Errorf("copied %q", copied)
	}
	h.answers = []string{"no code"}
	if h.run("/copy code", false); !strings.Contains(h.status.Text(), "no last code block yet") {
		t.Errorf("/copy code with none: %q", h.status.Text())
	}
	h.answers = []string{strings.Repeat("x", maxCopyBytes+1)}
	if h.run("/copy", false); !strings.Contains(h.status.Text(), "more than terminals take") {
		t.Errorf("too big: %q", h.status.Text())
	}
	if h.run("/copy all", false); !strings.Contains(h.status.Text(), "/copy code its last code block") {
		t.Errorf("a bad argument: %q", h.status.Text())
	}
	h = newHarness(t, Options{Copy: func(string) error { return errors.New("no terminal") }})
	h.answers = []string{"hi"}
	if msgs := h.run("/copy", false); len(msgs) != 1 || msgs[0] != (status.Said{Level: status.Error, Text: "copy: no terminal"}) {
		t.Errorf("a failed copy: %v", msgs)
	}
}

// /model NAME switches, refusing what is no model name and warning when
// the endpoint lacks it; alone it opens the picker, whose choice
// switches, or says why there is none.
func TestModel(t *testing.T) {
	ready, list := false, []modelpick.Model{{ID: "o3"}, {ID: "gpt-4.1"}}
	h := newHarness(t, Options{
		CheckModel: func(name string) string {
			if name == "gpt-9" {
				return "the endpoint does not list it"
			}
			return ""
		},
		Models: func() ([]modelpick.Model, bool) { return list, ready },
	})
	if r := h.result("/model o3"); r.Model != "o3" || r.Say != "" {
		t.Errorf("/model o3: %+v", r)
	}
	if r := h.result("/model gpt-9"); r.Model != "gpt-9" || r.Level != status.Warning || !strings.Contains(r.Say, "does not list it") {
		t.Errorf("/model gpt-9: %+v", r)
	}
	for _, line := range []string{"/model gpt 4", "/model /model"} {
		if h.run(line, false); !strings.Contains(h.status.Text(), "is not a model name") {
			t.Errorf("%s: %q", line, h.status.Text())
		}
	}
	if h.run("/model", false); !strings.Contains(h.status.Text(), "still loading") || h.layers.Len() != 0 {
		t.Errorf("before the list: %q", h.status.Text())
	}
	ready = true
	h.run("/model", false)
	picker, ok := h.layers.Top().(*pick.Picker)
	if !ok {
		t.Fatalf("/model opened %T", h.layers.Top())
	}
	var chosen Result
	for _, msg := range messages(picker.Update(tea.KeyMsg{Type: tea.KeyEnter})) {
		if r, ok := msg.(Result); ok {
			chosen = r
		}
	}
	if chosen.Model != "gpt-4.1" { // sorted by id; the cursor on the current model
		t.Errorf("the picker chose %+v", chosen)
	}
	list = nil
	if h.run("/model", false); !strings.Contains(h.status.Text(), "offers no model list") {
		t.Errorf("no list: %q", h.status.Text())
	}
	if h = newHarness(t, Options{}); h.run("/model", false) != nil || h.status.Text() != "model: gpt-4.1 (/model NAME switches)" {
		t.Errorf("without a catalogue: %q", h.status.Text())
	}
}

// /theme switches by name and completes the names; an unknown one says
// which there are.
func TestTheme(t *testing.T) {
	h := newHarness(t, Options{})
	if r := h.result("/theme light"); r.Theme != "light" || r.Say != "theme: light" {
		t.Errorf("/theme light: %+v", r)
	}
	if h.run("/theme neon", false); !strings.Contains(h.status.Text(), `unknown theme "neon"; themes: dark`) {
		t.Errorf("/theme neon: %q", h.status.Text())
	}
	if got := h.r.Complete("/theme l"); len(got) != 1 || got[0].Text != "/theme light" || !got[0].Complete {
		t.Errorf("/theme l offers %+v", got)
	}
}

// /permissions lists, adds, removes and saves rules, and says what the
// commands run under; a bad verb shows the usage.
func TestPermissions(t *testing.T) {
	var saved []event.PermissionRule
	h := newHarness(t, Options{SandboxInfo: func() string { return "workspace-write" }, SaveRules: func(r []event.PermissionRule) (string, error) {
		saved = r
		return "/home/p/.config/baton/config.toml", nil
	}})
	contains(t, "/permissions", h.result("/permissions").Note, "none: write, edit and command calls ask each time",
		"Commands run in sandbox: workspace-write", permissionsUsage)
	r := h.result("/permissions allow run_command(go test:*)")
	contains(t, "/permissions allow", r.Note, "allow run_command(go test:*)")
	if r.Say != "added allow run_command(go test:*) for this session" {
		t.Errorf("said %q", r.Say)
	}
	if r := h.result("/permissions save"); len(saved) != 1 || !strings.Contains(r.Say, "saved the user and session rules to /home/p/") {
		t.Errorf("save: %v, %q", saved, r.Say)
	}
	h.result("/permissions remove allow run_command(go test:*)")
	if h.s.calls[len(h.s.calls)-1] != "remove allow run_command(go test:*)" {
		t.Errorf("calls %v", h.s.calls)
	}
	for _, line := range []string{"/permissions frob", "/permissions allow", "/permissions remove allow"} {
		if h.run(line, false); !strings.Contains(h.status.Text(), "usage "+permissionsUsage) {
			t.Errorf("%s: %q", line, h.status.Text())
		}
	}
	h.s.err = errors.New("add rule: bad \x1b[31mpattern")
	if msgs := h.run("/permissions deny bad(", false); len(msgs) != 1 || msgs[0] != (status.Said{Level: status.Error, Text: "add rule: bad pattern"}) {
		t.Errorf("a refused rule: %v", msgs)
	}
	if h = newHarness(t, Options{}); h.run("/permissions save", false) != nil || !strings.Contains(h.status.Text(), "no user config") {
		t.Errorf("save without a config: %q", h.status.Text())
	}
}

// /init and custom commands send a prompt; a sub-task command asks the
// main agent to delegate to a type it knows, and says when it does not.
func TestPromptCommands(t *testing.T) {
	custom := []agenttypes.Command{
		{Name: "audit", Template: "Audit $ARGUMENTS.", Subtask: true, Agent: "Explore", Model: "o3"},
		{Name: "ghost", Template: "Build it.", Subtask: true, Agent: "deployer"},
		{Name: "fast", Template: "Go.", Model: "mini"},
	}
	h := newHarness(t, Options{Custom: custom, Types: agenttypes.Builtins()})
	if r := h.result("/init"); !strings.HasPrefix(r.Submit, "Write an AGENTS.md") || r.Queued != "/init" {
		t.Errorf("/init: %+v", r)
	}
	r := h.result("/audit the login form")
	if !strings.Contains(r.Submit, `subagent_type "explore" and model "o3"`) || !strings.HasSuffix(r.Submit, "\n\nAudit the login form.") {
		t.Errorf("/audit: %q", r.Submit)
	}
	if r := h.result("/ghost"); r.Submit != "Build it." || !strings.Contains(r.Say, `names agent "deployer", which is not a sub-agent type here`) {
		t.Errorf("/ghost: %+v", r)
	}
	if r := h.result("/fast"); r.Submit != "Go." || !strings.Contains(r.Say, "stays on gpt-4.1") {
		t.Errorf("/fast: %+v", r)
	}
	contains(t, "/agents", h.result("/agents").Note, "Sub-agent types:", "Explore")
	if r, ok := messages(h.r.Run("/quit", false, ""))[0].(Result); !ok || !r.Quit {
		t.Error("/quit does not ask the root to quit")
	}
}

// /subagents lists, describes, stops, messages, logs and reviews the
// children the agents area holds, named by id or number, and completes
// them.
func TestSubagents(t *testing.T) {
	h := newHarness(t, Options{})
	if h.run("/subagents", false); h.status.Text() != "no sub-agent has run in this session" {
		t.Errorf("/subagents with none: %q", h.status.Text())
	}
	if h.run("/subagents stop all", false); !strings.Contains(h.status.Text(), "no sub-agent is running") {
		t.Errorf("stop all with none: %q", h.status.Text())
	}
	meta := event.Meta{Agent: "explore-1", AgentType: "Explore", Description: "map it", Parent: event.MainAgent, Number: 1}
	h.area.Apply(event.AgentStarted{Meta: meta, Prompt: "go"}, time.Time{}, "")
	h.area.Apply(event.TextDelta{Meta: meta, Text: "found it"}, time.Time{}, "")
	if _, ok := h.result("/subagents list").Block.(tableBlock); !ok {
		t.Error("/subagents list is no table")
	}
	contains(t, "/subagents info", h.result("/subagents info #1").Note, "status", "running")
	for line, want := range map[string]string{
		"/subagents info":           "name a sub-agent by id or number",
		"/subagents info 1 2":       "takes one id or number",
		"/subagents stop 1 2":       "takes one id, number or all",
		"/subagents send 1":         "the message is missing",
		"/subagents log 7":          "no sub-agent #7",
		"/subagents log 1 lots":     `"lots" is neither a limit nor "tools"`,
		"/subagents log 1 0":        "the limit must be 1 or more",
		"/subagents frob":           "unknown command /subagents frob",
		"/subagents diff explore-1": "cannot review changes",
	} {
		if h.run(line, false); !strings.Contains(h.status.Text(), want) {
			t.Errorf("%s: %q, want %q", line, h.status.Text(), want)
		}
	}
	h.run("/subagents send 1 also check vendor/", false)
	h.run("/subagents stop explore-1", false)
	h.run("/subagents stop all", false)
	if got := strings.Join(h.s.calls, "; "); got != "send explore-1: also check vendor/; wind down explore-1; stop all" {
		t.Errorf("calls: %s", got)
	}
	if msgs := h.run("/subagents log 1", false); len(msgs) != 1 || !strings.Contains(msgs[0].(status.Said).Text, "no such file") {
		t.Errorf("a log without a transcript: %v", msgs)
	}
	rec, err := event.MarshalEvent(event.MessageDone{Meta: meta, Text: "all mapped"})
	if err != nil {
		t.Fatal(err)
	}
	h.s.records["explore-1"] = []transcript.Record{{Kind: transcript.KindEvent, Data: rec}, {Kind: "other"}}
	block := h.result("/subagents log 1 5 tools").Block
	lines := block.Lines(h.r.env.Styles, 60, func(e convo.Entry, w int) []string { return []string{e.Body} })
	contains(t, "the log", strings.Join(lines, "\n"), "Log of #1 explore-1", "all mapped")
	if got := h.r.Complete("/subagents s"); len(got) != 2 || got[0].Text != "/subagents stop " || got[1].Text != "/subagents send " {
		t.Errorf("/subagents s offers %+v", got)
	}
	if got := h.r.Complete("/subagents stop "); len(got) != 2 || got[0].Label != "all" || got[1].Text != "/subagents stop 1" {
		t.Errorf("/subagents stop offers %+v", got)
	}
}
