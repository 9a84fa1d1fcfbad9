package conversation

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/convo"
	"github.com/seed-e4e525a6/baton/ui/pane"
)

var main = event.Meta{Agent: event.MainAgent}

// newConversation is a conversation in the dark theme, sized.
func newConversation(t *testing.T, width, height int) *Model {
	t.Helper()
	styles := themes.New(themes.Dark())
	c := New(DefaultKeyMap(), &styles, false)
	c.SetSize(width, height)
	return c
}

// screen is the conversation as the person sees it, without colour; it
// fails the test if a line is wider than the view or the view is not
// exactly its height.
func screen(t *testing.T, c *Model, width, height int) string {
	t.Helper()
	lines := c.View(width, height)
	if len(lines) != height {
		t.Fatalf("%d lines in a view of %d", len(lines), height)
	}
	for _, line := range lines {
		if w := ansi.StringWidth(line); w > width {
			t.Fatalf("a line of %d cells in a view of %d: %q", w, width, ansi.Strip(line))
		}
	}
	return ansi.Strip(strings.Join(lines, "\n"))
}

func apply(c *Model, evs ...event.Event) {
	for _, ev := range evs {
		c.Apply(ev)
	}
}

func keyMsg(k tea.KeyType) tea.KeyMsg { return tea.KeyMsg{Type: k} }

// Before anything is said the view is the welcome, with the demo's words
// only in the demo; once something is said it is the conversation.
func TestWelcomeUntilSomethingIsSaid(t *testing.T) {
	c := newConversation(t, 80, 14)
	if s := screen(t, c, 80, 14); !strings.Contains(s, "a coding agent that delegates") || strings.Contains(s, "demo (offline)") || !c.Empty() {
		t.Errorf("welcome:\n%s", s)
	}
	styles := themes.New(themes.Dark())
	demo := New(DefaultKeyMap(), &styles, true)
	if s := screen(t, demo, 80, 14); !strings.Contains(s, "demo (offline)") || !strings.Contains(s, "OPENAI_API_KEY") {
		t.Errorf("the demo's welcome does not say it is the demo:\n%s", s)
	}
	apply(c, event.TurnStarted{Meta: main, Prompt: "hello"})
	if s := screen(t, c, 80, 14); strings.Contains(s, "delegates") || !strings.Contains(s, "› hello") || c.Empty() {
		t.Errorf("after a prompt:\n%s", s)
	}
}

// A turn shows the prompt, the thought folded to a line, the answer as
// Markdown, and tool calls with their state: done with its summary,
// failed, denied with the person's reason, and cut short. Notices and
// retries are the status line's and stay out.
func TestATurnAsThePersonSeesIt(t *testing.T) {
	c := newConversation(t, 80, 30)
	apply(c,
		event.TurnStarted{Meta: main, Prompt: "plan the change"},
		event.ReasoningDelta{Meta: main, Text: "first I look\nthen I plan"},
		event.TextDelta{Meta: main, Text: "Here is **the plan**."},
		event.MessageDone{Meta: main},
		event.ToolStarted{Meta: main, CallID: "1", Name: "grep", Title: "grep auth"},
		event.ToolFinished{Meta: main, CallID: "1", Name: "grep", Summary: "2 matches", Output: "a.go:1\nb.go:2"},
		event.ToolStarted{Meta: main, CallID: "2", Name: "read_file", Title: "read_file gone.go"},
		event.ToolFinished{Meta: main, CallID: "2", Name: "read_file", Summary: "no such file", Output: "no such file", IsError: true},
		event.ToolStarted{Meta: main, CallID: "3", Name: "run_command", Title: "run_command rm -rf build"},
		event.ToolFinished{Meta: main, CallID: "3", Name: "run_command", Denied: true, DenyReason: "not now"},
		event.Notice{Meta: main, Text: "a notice for the status line"},
		event.ToolStarted{Meta: main, CallID: "4", Name: "run_command", Title: "run_command make"},
		event.ToolStarted{Meta: main, CallID: "5", Name: "mcp__docs__search"},
		event.ToolStarted{Meta: main, CallID: "6", Name: "web_fetch", Title: "fetch example.com"},
	)
	s := screen(t, c, 80, 30)
	for _, want := range []string{"› plan the change", "✻ thought · 6 words (ctrl+o to show)", "● Here is the plan.",
		"⏺ grep auth (2 matches)", "⎿ a.go:1", "⏺ read_file gone.go (no such file)", "⊘ run_command rm -rf build", "not now", "⏺ run_command make …",
		"⏺ mcp__docs__search …", "⏺ fetch example.com …"} {
		if !strings.Contains(s, want) {
			t.Errorf("the conversation lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "**") || strings.Contains(s, "a notice for the status line") {
		t.Errorf("raw Markdown or a notice in the conversation:\n%s", s)
	}
	apply(c, event.TurnEnded{Meta: main, Status: event.StatusInterrupted})
	if s := screen(t, c, 80, 30); !strings.Contains(s, "run_command make (interrupted)") {
		t.Errorf("a call cut short by the interruption:\n%s", s)
	}
	if a := c.Answers(); len(a) != 1 || a[0] != "Here is **the plan**." {
		t.Errorf("answers %q", a)
	}
	if got := c.Main().Len(); got == 0 {
		t.Error("the main agent's conversation model is empty")
	}
}

// Long output is cut to a few lines until ctrl+o, which shows all of it
// and the whole thought; ctrl+o again folds them.
func TestExpandShowsAndFoldsOutput(t *testing.T) {
	c := newConversation(t, 80, 30)
	apply(c,
		event.TurnStarted{Meta: main, Prompt: "go"},
		event.ReasoningDelta{Meta: main, Text: "a deep thought"},
		event.MessageDone{Meta: main},
		event.ToolStarted{Meta: main, CallID: "1", Name: "run_command", Title: "run_command ls"},
		event.ToolFinished{Meta: main, CallID: "1", Name: "run_command", Summary: "6 lines", Output: "a\nb\nc\nd\ne\nsixth\n"},
		event.ToolStarted{Meta: main, CallID: "2", Name: "edit_file", Title: "edit_file x.go"},
		event.ToolFinished{Meta: main, CallID: "2", Name: "edit_file", Summary: "+1 -1", Diff: "--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-old\n+new\n"},
	)
	s := screen(t, c, 80, 30)
	if strings.Contains(s, "sixth") || !strings.Contains(s, "… +3 lines (ctrl+o to expand)") || !strings.Contains(s, "+new") {
		t.Fatalf("collapsed:\n%s", s)
	}
	if !c.Update(keyMsg(tea.KeyCtrlO)) || !c.Expanded() {
		t.Fatal("ctrl+o was not the conversation's")
	}
	if s := screen(t, c, 80, 30); !strings.Contains(s, "sixth") || !strings.Contains(s, "a deep thought") || strings.Contains(s, "ctrl+o to expand") {
		t.Errorf("expanded:\n%s", s)
	}
	c.Update(keyMsg(tea.KeyCtrlO))
	if s := screen(t, c, 80, 30); strings.Contains(s, "sixth") || c.Expanded() {
		t.Errorf("folded again:\n%s", s)
	}
}

// fill says n numbered lines as answers, each its own message.
func fill(c *Model, n int) {
	apply(c, event.TurnStarted{Meta: main, Prompt: "count"})
	for i := range n {
		apply(c, event.MessageDone{Meta: main, Text: fmt.Sprintf("line %02d", i)})
	}
}

// Page up leaves the bottom and stays put while text comes; page down
// back to the end follows it again; home shows the start, end the
// bottom; the wheel scrolls a few lines either way.
func TestScrollingByKeysAndWheel(t *testing.T) {
	c := newConversation(t, 40, 10)
	fill(c, 30)
	if s := screen(t, c, 40, 10); !strings.Contains(s, "line 29") || !c.Pinned() {
		t.Fatalf("not at the bottom:\n%s", s)
	}
	c.Update(keyMsg(tea.KeyPgUp))
	up := screen(t, c, 40, 10)
	if strings.Contains(up, "line 29") || c.Pinned() {
		t.Fatalf("page up:\n%s", up)
	}
	apply(c, event.MessageDone{Meta: main, Text: "line 30"})
	if s := screen(t, c, 40, 10); s != up {
		t.Errorf("new text moved a scrolled view:\n%s\nwas\n%s", s, up)
	}
	c.Update(keyMsg(tea.KeyPgDown))
	c.Update(keyMsg(tea.KeyPgDown))
	if s := screen(t, c, 40, 10); !strings.Contains(s, "line 30") || !c.Pinned() {
		t.Errorf("page down to the end does not follow again:\n%s", s)
	}
	c.Update(keyMsg(tea.KeyHome))
	if s := screen(t, c, 40, 10); !strings.Contains(s, "› count") || c.Pinned() {
		t.Errorf("home:\n%s", s)
	}
	c.Update(keyMsg(tea.KeyEnd))
	if !c.Pinned() {
		t.Error("end does not follow the bottom")
	}
	c.Update(tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelUp})
	wheeled := screen(t, c, 40, 10)
	if c.Pinned() || strings.Contains(wheeled, "line 30") {
		t.Errorf("the wheel up did not scroll:\n%s", wheeled)
	}
	c.Update(tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelDown})
	if !c.Pinned() {
		t.Error("the wheel down to the end does not follow again")
	}
	if c.Update(tea.MouseMsg{Action: tea.MouseActionRelease, Button: tea.MouseButtonWheelUp}) ||
		c.Update(tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonLeft}) ||
		c.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")}) || c.Update(struct{}{}) {
		t.Error("the conversation took what is not its own")
	}
}

// A conversation that fits has nothing to scroll: page up keeps it
// following the bottom, and home on it too.
func TestNothingToScroll(t *testing.T) {
	c := newConversation(t, 40, 10)
	fill(c, 2)
	c.Update(keyMsg(tea.KeyPgUp))
	c.Update(keyMsg(tea.KeyHome))
	if !c.Pinned() {
		t.Error("a conversation that fits stopped following the bottom")
	}
	c.Update(keyMsg(tea.KeyPgDown)) // nothing to do while pinned
	if s := screen(t, c, 40, 10); !strings.HasSuffix(s, "● line 01") {
		t.Errorf("a short conversation does not sit on the bottom:\n%s", s)
	}
}

// What a command reports goes in as a note or a block, and the view
// follows it to the bottom; Reset empties it.
func TestCommandOutputAndReset(t *testing.T) {
	c := newConversation(t, 40, 10)
	fill(c, 30)
	c.Update(keyMsg(tea.KeyHome))
	c.Note("a note from /help\n  indented field")
	if s := screen(t, c, 40, 10); !strings.Contains(s, "a note from /help") || !strings.Contains(s, "    indented field") || !c.Pinned() {
		t.Errorf("a note:\n%s", s)
	}
	c.Block(table{"a block from /agents"})
	if s := screen(t, c, 40, 10); !strings.Contains(s, "a block from /agents") || !strings.Contains(s, "entry: you › hi") {
		t.Errorf("a block:\n%s", s)
	}
	c.Reset()
	if !c.Empty() || len(c.Answers()) != 0 {
		t.Error("Reset left the conversation")
	}
}

// table is a command's block that draws one of its own lines and an
// entry the conversation's way.
type table struct{ line string }

func (b table) Lines(_ *themes.Styles, width int, draw func(convo.Entry, int) []string) []string {
	entry := draw(convo.Entry{Kind: convo.Message, Body: "hi"}, width)
	return append([]string{b.line}, "entry: "+ansi.Strip(entry[0]))
}

// A child's task call folds to the child's summary line when the child
// ends, and shows its report once output is expanded; a child with no
// task call of the main agent's gets its summary line at the end.
func TestChildFoldsInPlaceOfItsTaskCall(t *testing.T) {
	c := newConversation(t, 80, 20)
	styles := themes.New(themes.Dark())
	child := event.Meta{Agent: "c1", Number: 1, Parent: event.MainAgent, TaskCall: "t1", AgentType: "Explore", Description: "find auth"}
	apply(c,
		event.TurnStarted{Meta: main, Prompt: "go"},
		event.ToolStarted{Meta: main, CallID: "t1", Name: "task", Title: "task Explore: find auth"},
	)
	p := pane.New(child, 1, &styles)
	p.Apply(event.AgentStarted{Meta: child, Prompt: "look"})
	c.Link(child, p)
	p.Apply(event.AgentFinished{Meta: child, Status: event.StatusCompleted, Text: "Auth lives in **session.go**.", Result: "status: completed"})
	c.Fold(p)
	apply(c, event.ToolFinished{Meta: main, CallID: "t1", Name: "task", Summary: "done", Output: "status: timed_out · partial"})
	s := screen(t, c, 80, 20)
	if !strings.Contains(s, "[Explore] find auth") || strings.Contains(s, "task Explore: find auth") {
		t.Errorf("the task call did not fold to the child's line:\n%s", s)
	}
	c.ToggleExpanded()
	if s := screen(t, c, 80, 20); !strings.Contains(s, "Auth lives in session.go.") {
		t.Errorf("the expanded fold lacks the report:\n%s", s)
	}

	// A child that ended with no report shows, expanded, the status its
	// task call returned, in words.
	quiet := event.Meta{Agent: "c3", Number: 3, Parent: event.MainAgent, TaskCall: "t3", AgentType: "Explore", Description: "slow look"}
	apply(c, event.ToolStarted{Meta: main, CallID: "t3", Name: "task", Title: "task Explore: slow look"})
	r := pane.New(quiet, 3, &styles)
	c.Link(quiet, r)
	r.Apply(event.AgentFinished{Meta: quiet, Status: event.StatusTimedOut})
	c.Fold(r)
	apply(c, event.ToolFinished{Meta: main, CallID: "t3", Name: "task", Summary: "timed out", Output: "status: timed_out · 2 tools\nno report"})
	if s := screen(t, c, 80, 20); !strings.Contains(s, "status: timed out · 2 tools") {
		t.Errorf("a child without a report does not show its status in words:\n%s", s)
	}

	other := event.Meta{Agent: "c2", Number: 2, Parent: "c1", AgentType: "Plan", Description: "nested plan"}
	q := pane.New(other, 2, &styles)
	c.Link(other, q) // a grandchild has no task line here
	q.Apply(event.AgentFinished{Meta: other, Status: event.StatusFailed, Reason: "boom"})
	c.Fold(q)
	c.Refresh(q)
	c.Refresh(p)
	if s := screen(t, c, 80, 20); !strings.Contains(s, "[Plan] nested plan") {
		t.Errorf("a child without a task line has no summary line:\n%s", s)
	}
}

// A child's entries are drawn the way the conversation draws its own,
// with the person's message, a notice and an error in their own words.
func TestDrawEntryForAChildsTranscript(t *testing.T) {
	c := newConversation(t, 60, 10)
	draw := func(e convo.Entry, expanded bool) string {
		return ansi.Strip(strings.Join(c.DrawEntry(e, 60, expanded), "\n"))
	}
	if s := draw(convo.Entry{Kind: convo.Message, Body: "please hurry"}, false); s != "you › please hurry" {
		t.Errorf("message: %q", s)
	}
	if s := draw(convo.Entry{Kind: convo.Notice, Title: "error", Body: "the provider said no\nand why", IsError: true, Summary: "3 tools"}, false); s != "error · 3 tools\n  the provider said no\n  and why" {
		t.Errorf("error: %q", s)
	}
	if s := draw(convo.Entry{Kind: convo.Status, Title: "done"}, false); s != "done" {
		t.Errorf("status: %q", s)
	}
	if s := draw(convo.Entry{Kind: convo.Reasoning, Body: "hidden thought"}, true); !strings.Contains(s, "hidden thought") {
		t.Errorf("an expanded thought: %q", s)
	}
}

// A compaction leaves a fold line whose summary ctrl+o shows; a streaming
// answer is drawn as it comes and kept when it is cut short.
func TestCompactionAndAnInterruptedAnswer(t *testing.T) {
	c := newConversation(t, 80, 20)
	apply(c,
		event.Compacted{Meta: main, Summary: "we talked about auth", Replaced: 12},
		event.TurnStarted{Meta: main, Prompt: "more"},
		event.TextDelta{Meta: main, Text: "I was say"},
	)
	s := screen(t, c, 80, 20)
	if !strings.Contains(s, "⊟") || !strings.Contains(s, "ctrl+o shows it") || !strings.Contains(s, "I was say") {
		t.Fatalf("compaction and stream:\n%s", s)
	}
	apply(c, event.TurnEnded{Meta: main, Status: event.StatusInterrupted})
	c.ToggleExpanded()
	if s := screen(t, c, 80, 20); !strings.Contains(s, "we talked about auth") || !strings.Contains(s, "⎿ interrupted") {
		t.Errorf("expanded compaction and the cut answer:\n%s", s)
	}
}

// A theme change redraws every block in the new colours.
func TestThemeChangeRedraws(t *testing.T) {
	old := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.TrueColor)
	t.Cleanup(func() { lipgloss.SetColorProfile(old) })
	c := newConversation(t, 60, 5)
	fill(c, 1)
	before := strings.Join(c.View(60, 5), "\n")
	light := themes.New(themes.Light())
	c.SetStyles(&light)
	if after := strings.Join(c.View(60, 5), "\n"); after == before || ansi.Strip(after) != ansi.Strip(before) {
		t.Error("a theme change did not redraw the same text in new colours")
	}
}
