package agents

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/convo"
	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/pane"
	"github.com/seed-e4e525a6/baton/ui/status"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// session records what the area asks of the engine.
type session struct {
	mu    sync.Mutex
	calls []string
	fail  error
	// woundDown are the children wound down once: a second stop aborts.
	woundDown map[event.AgentID]bool
}

func (s *session) record(call string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, call)
	return s.fail
}

func (s *session) StopAgent(id event.AgentID) error { return s.record("stop " + string(id)) }
func (s *session) WindDownAgent(id event.AgentID) (bool, error) {
	s.mu.Lock()
	again := s.woundDown[id]
	if s.woundDown == nil {
		s.woundDown = map[event.AgentID]bool{}
	}
	s.woundDown[id] = true
	s.mu.Unlock()
	return again, s.record("wind down " + string(id))
}
func (s *session) SendToAgent(id event.AgentID, text string) error {
	return s.record("send " + string(id) + ": " + text)
}
func (s *session) Background(id event.AgentID) error { return s.record("background " + string(id)) }
func (s *session) ContinueAgent(id event.AgentID, prompt string) error {
	return s.record("continue " + string(id) + ": " + prompt)
}
func (s *session) ResumeAgent(id event.AgentID) error { return s.record("resume " + string(id)) }
func (s *session) RetryAgent(id event.AgentID) error  { return s.record("retry " + string(id)) }

// newArea makes an area over a recording session.
func newArea() (*Area, *session, *status.Model, *overlay.Stack) {
	styles := themes.New(themes.Dark())
	s, said, layers := &session{}, status.New(&styles, nil), &overlay.Stack{}
	a := New(Config{Keys: DefaultKeyMap(), Line: input.DefaultKeyMap(), Styles: &styles, Session: s, Status: said, Layers: layers,
		Draw:     func(e convo.Entry, width int, _ bool) []string { return []string{e.Title + " " + e.Body} },
		Expanded: func() bool { return false },
		After:    func(_ time.Duration, msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }})
	return a, s, said, layers
}

// meta tags an event as child n's, a child of the main agent.
func meta(n int, typ string) event.Meta {
	return event.Meta{Agent: event.AgentID(fmt.Sprintf("%s-%d", strings.ToLower(typ), n)), AgentType: typ, Description: "task " + fmt.Sprint(n),
		Parent: event.MainAgent, Number: n, Time: t0}
}

// start makes child n run, with a tool call under way.
func start(a *Area, n int, typ string) *pane.Pane {
	m := meta(n, typ)
	a.Apply(event.AgentStarted{Meta: m, Prompt: "go"}, t0, "⠋")
	a.Apply(event.ToolStarted{Meta: m, CallID: fmt.Sprint("c", n), Name: "grep", Title: "grep TODO"}, t0, "⠋")
	p, _ := a.Pane(m.Agent)
	return p
}

func finish(a *Area, p *pane.Pane) {
	a.Apply(event.AgentFinished{Meta: p.Meta(), Status: event.StatusCompleted}, t0.Add(time.Second), "⠋")
}

// run runs a Cmd and what it batches, and returns their messages.
func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range batch {
			out = append(out, run(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// focusQuietly focuses id's pane and lets its quiet period pass, so its
// keys are armed.
func focusQuietly(a *Area, id event.AgentID) {
	a.Focus(id)
	for _, msg := range run(a.Arm()) {
		run(a.Quiet(msg.(ArmMsg)))
	}
}

// Children are kept in the order requested, however they are first heard
// of, and found by id or number; the main agent has no pane.
func TestPanesFollowTheOrderRequested(t *testing.T) {
	a, _, _, _ := newArea()
	for _, n := range []int{3, 1, 2} {
		if _, created := a.Apply(event.AgentStarted{Meta: meta(n, "X")}, t0, ""); !created {
			t.Fatalf("child %d: no pane made", n)
		}
	}
	if _, created := a.Apply(event.AgentStarted{Meta: meta(1, "X")}, t0, ""); created {
		t.Error("a second event made a second pane")
	}
	if p, _ := a.Apply(event.TurnStarted{Meta: event.Meta{Agent: event.MainAgent}}, t0, ""); p != nil {
		t.Error("the main agent got a pane")
	}
	var got []event.AgentID
	for _, p := range a.All() {
		got = append(got, p.ID())
	}
	if len(got) != 3 || got[0] != "x-1" || got[1] != "x-2" || got[2] != "x-3" {
		t.Fatalf("panes in order %v", got)
	}
	if p, err := a.Find("#2"); err != nil || p.ID() != "x-2" {
		t.Fatalf("#2 found %v, %v", p, err)
	}
	if p, err := a.Find("x-3"); err != nil || p.Number() != 3 {
		t.Fatalf("x-3 found %v, %v", p, err)
	}
	for ref, want := range map[string]string{"#9": "no sub-agent #9", "nobody": `no sub-agent "nobody"`} {
		if _, err := a.Find(ref); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", ref, err)
		}
	}
	empty, _, _, _ := newArea()
	if _, err := empty.Find("1"); err == nil || !strings.Contains(err.Error(), "none has run") {
		t.Errorf("an empty area found: %v", err)
	}
}

// The area takes what its panes want within its share, computed before
// anything is drawn; short of room each pane keeps its header and the
// focused one gets the spare lines; shorter still, a window of headers
// follows the focus and counts the rest.
func TestFitAndView(t *testing.T) {
	a, _, _, _ := newArea()
	one, two := start(a, 1, "Explore"), start(a, 2, "Plan")
	want := one.Want(80) + two.Want(80)
	a.Fit(80, 40, false)
	if a.Height() != 1+want {
		t.Fatalf("with room the area is %d lines, want a rule and %d", a.Height(), want)
	}
	view := a.View(a.Height())
	if len(view) != a.Height() || !strings.Contains(ansi.Strip(view[0]), "sub-agents (2)") {
		t.Fatalf("the view:\n%s", ansi.Strip(strings.Join(view, "\n")))
	}

	a.Focus(two.ID())
	a.Fit(80, 8, false) // half of 8: a rule and three lines
	view = a.View(a.Height())
	if a.Height() != 4 || len(view) != 4 || !strings.Contains(ansi.Strip(view[1]), "#1 [Explore]") || !strings.Contains(ansi.Strip(view[2]), "#2 [Plan]") {
		t.Fatalf("short of room (area %d):\n%s", a.Height(), ansi.Strip(strings.Join(view, "\n")))
	}

	start(a, 3, "Review")
	a.Fit(80, 6, true) // a card waits: a quarter of 6 is one line
	if view := a.View(a.Height()); a.Height() != 1 || len(view) != 1 || !strings.Contains(view[0], "3 sub-agents running") {
		t.Fatalf("with a card (area %d): %q", a.Height(), ansi.Strip(strings.Join(view, "\n")))
	}
	a.Fit(80, 12, true) // a quarter of 12: a rule, one header, the count
	view = a.View(a.Height())
	if len(view) != 3 || !strings.Contains(ansi.Strip(view[1]), "#2 [Plan]") || !strings.Contains(view[2], "+2 more running") {
		t.Fatalf("a window of headers does not follow the focus:\n%s", ansi.Strip(strings.Join(view, "\n")))
	}
	for _, line := range view {
		if ansi.StringWidth(line) > 80 {
			t.Errorf("a line is %d wide", ansi.StringWidth(line))
		}
	}
	a.Fit(80, 1, false)
	if a.Height() != 0 || a.View(0) != nil {
		t.Error("no room still drew the area")
	}
}

// tab walks input, each live pane, then the pane waiting for review; a
// pane that ends gives the focus back to the input and says so.
func TestFocus(t *testing.T) {
	a, _, said, _ := newArea()
	a.Cycle(1)
	if a.Focused() != nil || !strings.Contains(said.Text(), "no sub-agent is running") {
		t.Fatalf("tab with no child: %v, %q", a.Focused(), said.Text())
	}
	one, two := start(a, 1, "Explore"), start(a, 2, "Plan")
	for _, want := range []event.AgentID{one.ID(), two.ID(), ""} {
		a.Cycle(1)
		if got := a.Focused(); want == "" && got != nil || want != "" && (got == nil || got.ID() != want) {
			t.Fatalf("tab focused %v, want %q", got, want)
		}
	}
	a.Cycle(-1)
	if a.Focused() != two || !two.Focused() || one.Focused() {
		t.Fatal("shift+tab from the input did not focus the last pane")
	}
	said.SetTransient(status.Warning, "stopping #2 plan-2…", status.Child, two.ID())
	finish(a, two)
	a.Ended(two)
	if a.Focused() != nil || said.Text() != "#2 plan-2 done" {
		t.Errorf("a pane that ended: focus %v, status %q", a.Focused(), said.Text())
	}
	a.Focus("nobody")
	if a.Focused() != nil {
		t.Error("an unknown child took the focus")
	}
}

// The focused pane's keys act on it: x stops it, s opens the message
// line, enter its transcript, b sends it to the background, esc goes
// back; a failed call is said.
func TestKeys(t *testing.T) {
	a, s, said, layers := newArea()
	p := start(a, 1, "Explore")
	a.Apply(event.StepStarted{Meta: p.Meta(), Step: 1}, t0, "⠋")
	if a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")}) != nil {
		t.Fatal("a key with no pane focused did something")
	}
	focusQuietly(a, p.ID())
	run(a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")}))
	a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("s")})
	if _, ok := layers.Top().(*Message); !ok {
		t.Fatalf("s opened %T", layers.Top())
	}
	layers.Remove(layers.Top())
	a.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if tr, ok := layers.Top().(*overlay.Transcript); !ok || tr.ID() != p.ID() {
		t.Fatalf("enter opened %T", layers.Top())
	}
	run(a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("b")}))
	if got := strings.Join(s.calls, "; "); got != "wind down explore-1; background explore-1" {
		t.Errorf("calls: %s", got)
	}
	if keys := a.ShortHelp(); len(keys) != 6 {
		t.Errorf("a running pane's keys: %d", len(keys))
	}
	s.fail = errors.New("gone")
	msgs := run(a.Send(p.ID(), "hi"))
	if len(msgs) != 1 || msgs[0] != (status.Said{Level: status.Error, Text: "send to explore-1: gone"}) {
		t.Errorf("a failed send said %v", msgs)
	}
	a.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if a.Focused() != nil || a.ShortHelp() != nil {
		t.Error("esc did not go back to the input")
	}
	finish(a, p)
	if a.Stop(p) != nil || !strings.Contains(said.Text(), "already ended") {
		t.Errorf("stopping a finished child: %q", said.Text())
	}
	s.fail = nil
	if run(a.StopAll()); s.calls[len(s.calls)-1] != "stop all" || said.Text() != "stopping every sub-agent…" {
		t.Errorf("stopping all: %v, %q", s.calls, said.Text())
	}
	if a.OpenReview(p) != nil || !strings.Contains(said.Text(), "cannot review") {
		t.Errorf("a review on a session without them: %q", said.Text())
	}
}

// b sends a running child of the main agent to the background, once,
// and never a grandchild or one that ended; the header counts those
// still running; a finished child is continued; the clock moves live
// panes only; a review's end is said and gives the focus back.
func TestBackgroundContinueTickReviewed(t *testing.T) {
	a, s, said, _ := newArea()
	p := start(a, 1, "Explore")
	a.Apply(event.StepStarted{Meta: p.Meta(), Step: 1}, t0, "⠋")
	run(a.Background(p))
	a.Apply(event.AgentBackgrounded{Meta: p.Meta()}, t0, "⠋")
	if a.InBackground() != 1 || !p.Background() {
		t.Fatalf("%d in the background", a.InBackground())
	}
	if a.Background(p) != nil || !strings.Contains(said.Text(), "already runs in the background") {
		t.Errorf("b twice: %q", said.Text())
	}
	grand := meta(2, "Plan")
	grand.Parent = p.ID()
	a.Apply(event.AgentStarted{Meta: grand}, t0, "⠋")
	g, _ := a.Pane(grand.Agent)
	if a.Background(g) != nil || !strings.Contains(said.Text(), "only the main agent's sub-agents") {
		t.Errorf("b on a grandchild: %q", said.Text())
	}
	a.Tick(t0.Add(3*time.Second), "⣾")
	if !strings.HasPrefix(ansi.Strip(p.HeaderLine(80)), "⣾") {
		t.Errorf("the clock did not move a live pane: %q", ansi.Strip(p.HeaderLine(80)))
	}
	finish(a, p)
	done := start(a, 3, "Review")
	finish(a, done)
	if a.Background(done) != nil || !strings.Contains(said.Text(), "background: #3 review-3 is done") {
		t.Errorf("b on a finished child: %q", said.Text())
	}
	run(a.Continue(p, "and the tests?"))
	if last := s.calls[len(s.calls)-1]; last != "continue explore-1: and the tests?" || !strings.Contains(said.Text(), "continuing #1 explore-1") {
		t.Errorf("continue: %q, %q", last, said.Text())
	}
	a.Focus(g.ID())
	a.Reviewed(g, event.ReviewFinished{Summary: "applied 2 files"})
	if said.Text() != "#2 plan-2: applied 2 files" || a.Focused() != nil {
		t.Errorf("reviewed: %q, focus %v", said.Text(), a.Focused())
	}
	asking := meta(4, "Review")
	a.Apply(event.ApprovalRequested{Meta: asking, Request: &event.ApprovalRequest{ID: "d4", Kind: event.ApproveDelegation,
		Delegation: &event.DelegationPreview{AgentType: "Review"}}}, t0, "⠋")
	focusQuietly(a, asking.Agent)
	a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("s")})
	if !strings.Contains(said.Text(), "only a running sub-agent takes messages") {
		t.Errorf("s on a child awaiting approval: %q", said.Text())
	}
}
