package approval

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/status"
)

var (
	t0     = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	parent = event.Meta{Agent: event.MainAgent}
	child  = event.Meta{Agent: "explore-1", AgentType: "Explore", Description: "map the layout", Parent: event.MainAgent}
)

// stopper records what the cards stop.
type stopper struct {
	interrupts int
	stopped    []event.AgentID
}

func (s *stopper) Interrupt() { s.interrupts++ }

func (s *stopper) StopAgent(id event.AgentID) error {
	s.stopped = append(s.stopped, id)
	return nil
}

// queue makes an empty queue whose guard's ticks are kept in timers, to
// be sent by hand.
func queue(width, height int) (*Model, *[]tea.Msg) {
	var timers []tea.Msg
	styles := themes.New(themes.Dark())
	m := New(DefaultKeyMap(), input.DefaultKeyMap(), func(_ time.Duration, msg tea.Msg) tea.Cmd {
		timers = append(timers, msg)
		return nil
	}, &stopper{}, status.New(&styles, nil))
	m.SetStyles(&styles)
	m.SetSize(width, height)
	m.SetNow(t0)
	return m, &timers
}

// armed pushes req and arms it as the quiet period would.
func armed(t *testing.T, m *Model, timers *[]tea.Msg, meta event.Meta, req *event.ApprovalRequest) {
	t.Helper()
	m.Push(meta, req, 0)
	m.Arm()
	for _, msg := range *timers {
		m.Update(msg)
	}
	*timers = nil
	if !m.Armed() {
		t.Fatal("the card did not arm")
	}
}

func delegation(id, typ, desc string) *event.ApprovalRequest {
	return &event.ApprovalRequest{ID: id, Kind: event.ApproveDelegation, Delegation: &event.DelegationPreview{
		AgentType: typ, Description: desc, Prompt: "Map the project layout: list the top-level folders and say what kind of project this is.",
		Tools: []string{"read_file", "grep", "glob"}, Model: "gpt-4.1-mini", MaxSteps: 15, Timeout: 2 * time.Minute,
		EstimatedTokens: 1200, Isolation: event.IsolationShared}}
}

func tool(id string) *event.ApprovalRequest {
	return &event.ApprovalRequest{ID: id, Kind: event.ApproveTool, Tool: "edit_file", Args: `{"path":"engine/loop.go"}`,
		Always: []string{"edit_file(engine/loop.go)"}, AlwaysFolder: []string{"edit_file(engine/**)"},
		AlwaysLabel: "engine/loop.go", AlwaysFolderLabel: "engine/**",
		Preview: "--- a/engine/loop.go\n+++ b/engine/loop.go\n@@ -3,2 +3,2 @@\n-func Run() {}\n+func Loop() {}\n // loop\n"}
}

func press(k string) tea.KeyMsg {
	switch k {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// TestGolden compares the active card in each state with testdata;
// -update rewrites them.
func TestGolden(t *testing.T) {
	cases := map[string]func(t *testing.T, m *Model, timers *[]tea.Msg){
		"delegation": func(t *testing.T, m *Model, timers *[]tea.Msg) {
			armed(t, m, timers, parent, delegation("d1", "Explore", "map the project layout"))
			m.Push(parent, delegation("d2", "Review", "look for TODOs"), 0)
			m.Push(parent, delegation("d3", "Explore", "find entry points"), 0)
		},
		"unarmed": func(t *testing.T, m *Model, timers *[]tea.Msg) {
			m.Push(child, tool("t1"), 1)
			m.Arm()
		},
		"diff": func(t *testing.T, m *Model, timers *[]tea.Msg) { armed(t, m, timers, child, tool("t1")) },
		"reason": func(t *testing.T, m *Model, timers *[]tea.Msg) {
			armed(t, m, timers, parent, tool("t1"))
			m.Update(press("n"))
			for _, r := range "use Loop" {
				m.Update(press(string(r)))
			}
		},
		"edit": func(t *testing.T, m *Model, timers *[]tea.Msg) {
			armed(t, m, timers, parent, delegation("d1", "Explore", "map the project layout"))
			m.Update(press("e"))
		},
	}
	for name, fill := range cases {
		for _, width := range []int{60, 80, 120} {
			t.Run(fmt.Sprintf("%s_%d", name, width), func(t *testing.T) {
				m, timers := queue(width, 16)
				fill(t, m, timers)
				view := m.View()
				for _, line := range strings.Split(view, "\n") {
					if w := ansi.StringWidth(line); w > width {
						t.Errorf("line %q is %d cells at %d", ansi.Strip(line), w, width)
					}
				}
				golden.RequireEqual(t, []byte(ansi.Strip(view)+"\n"))
			})
		}
	}
}

// A keystroke during the quiet period starts it again; only a quiet
// tick arms the card.
func TestTypingGuard(t *testing.T) {
	m, timers := queue(80, 16)
	m.Push(parent, tool("t1"), 0)
	if _, started := m.Arm(); !started {
		t.Fatal("the first card did not start its quiet period")
	}
	if _, again := m.Arm(); again {
		t.Fatal("the quiet period started twice")
	}
	m.Keystroke()
	tick := (*timers)[0]
	*timers = nil
	if m.Update(tick); m.Armed() || len(*timers) != 1 {
		t.Fatalf("a tick after a keystroke armed the card (timers %d)", len(*timers))
	}
	if m.HoldsKeys(press("y")) {
		t.Fatal("an unarmed card holds keys")
	}
	if m.Update((*timers)[0]); !m.Armed() || !m.HoldsKeys(press("y")) {
		t.Fatal("a quiet tick did not arm the card")
	}
	if m.HoldsKeys(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y"), Paste: true}) {
		t.Error("pasted text reaches an armed card")
	}
}

// "Always" answers its own card with the rules chosen and leaves the
// waiting cards to the engine, which settles those the rules cover (and
// says so in ApprovalResolved events); Y approves the delegations and
// leaves tool cards.
func TestAlwaysAnswersItsCardAndLeavesTheRestToTheEngine(t *testing.T) {
	m, timers := queue(80, 16)
	first := tool("t1")
	armed(t, m, timers, child, first)
	m.Push(child, tool("t2"), 0)
	m.Push(parent, tool("t3"), 0)
	cmd, out := m.update(press("a"))
	if !out.answered || !strings.Contains(out.said, "always allowed for explore-1 only; added edit_file(engine/loop.go)") {
		t.Fatalf("a said %q", out.said)
	}
	run(cmd)
	if got := first.Wait(t.Context()); got.Decision != event.AllowAlways || len(got.Rules) != 1 || got.Rules[0] != "edit_file(engine/loop.go)" {
		t.Errorf("first answered %+v", got)
	}
	if m.Len() != 2 {
		t.Fatalf("%d cards left, want the two the engine decides about", m.Len())
	}
	if !m.Drop("t2") || m.Len() != 1 {
		t.Error("the card the engine settled did not leave")
	}

	m, timers = queue(80, 16)
	armed(t, m, timers, parent, delegation("d1", "Explore", "a"))
	m.Push(parent, tool("t1"), 0)
	m.Push(parent, delegation("d2", "Review", "b"), 0)
	m.Update(press("Y"))
	if said := m.status.Text(); said != "approved 2 delegations" || m.Len() != 1 || m.Delegations() != 0 {
		t.Errorf("Y said %q and left %d cards", said, m.Len())
	}
}

// esc on a tool card stops the turn before the denial, and on a child's
// card that child alone; n takes a reason; an empty edited prompt is
// refused and the card stays.
func TestDenials(t *testing.T) {
	m, timers := queue(80, 16)
	stops := m.stopper.(*stopper)
	req := tool("t1")
	armed(t, m, timers, parent, req)
	run(m.Update(press("esc")))
	if got := req.Wait(t.Context()); got.Decision != event.Deny || got.Reason != "the person stopped the turn" {
		t.Errorf("esc answered %+v", got)
	}
	if stops.interrupts != 1 || m.status.Text() != "interrupting…" || m.Len() != 0 {
		t.Errorf("esc on the main agent's card: %d interrupts, status %q, %d cards", stops.interrupts, m.status.Text(), m.Len())
	}

	req = tool("t0")
	m.Push(child, req, 3)
	armed(t, m, timers, child, tool("t9"))
	run(m.Update(press("esc")))
	if got := req.Wait(t.Context()); got.Reason != "the person stopped this sub-agent" || len(stops.stopped) != 1 || stops.stopped[0] != child.Agent {
		t.Errorf("esc on a child's card answered %+v and stopped %v", got, stops.stopped)
	}
	if said := m.status.Text(); said != "stopping #3 explore-1…" || stops.interrupts != 1 {
		t.Errorf("esc on a child's card said %q, %d interrupts", said, stops.interrupts)
	}
	m.Drop("t9")

	req = tool("t2")
	armed(t, m, timers, parent, req)
	m.Update(press("n"))
	for _, r := range "not that file" {
		m.Update(press(string(r)))
	}
	run(m.Update(press("enter")))
	if got := req.Wait(t.Context()); got.Reason != "not that file" {
		t.Errorf("n+reason answered %+v", got)
	}

	armed(t, m, timers, parent, delegation("d1", "Explore", "a"))
	m.Update(press("e"))
	for range 200 {
		m.Update(tea.KeyMsg{Type: tea.KeyBackspace})
	}
	if m.Update(press("enter")); m.status.Level() != status.Error || m.Len() != 1 || !m.Typing() {
		t.Errorf("an empty prompt: %q, %d cards", m.status.Text(), m.Len())
	}
	m.Update(press("esc"))
	if m.Typing() || m.Len() != 1 {
		t.Error("esc in the editor did not go back to the card")
	}
}

// The person is called back once: at once when away, else after the
// wait.
func TestCallOnce(t *testing.T) {
	m, _ := queue(80, 16)
	m.Push(parent, tool("t1"), 0)
	m.Arm()
	if m.Call(false, 10*time.Second) {
		t.Fatal("called before the wait")
	}
	m.SetNow(t0.Add(10 * time.Second))
	if !m.Call(false, 10*time.Second) || m.Call(true, 10*time.Second) {
		t.Error("not called once after the wait")
	}
}

// run runs a Cmd and what it batches.
func run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	if batch, ok := cmd().(tea.BatchMsg); ok {
		for _, c := range batch {
			run(c)
		}
	}
}
