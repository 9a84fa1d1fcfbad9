package command

import (
	"errors"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/agents"
	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// session records what the commands ask of it.
type session struct {
	mu      sync.Mutex
	calls   []string
	err     error
	rules   []event.PermissionRule
	mcp     []event.MCPServer
	skills  []event.SkillStatus
	hooks   []event.HookStatus
	records map[event.AgentID][]transcript.Record
}

func (s *session) call(c string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, c)
	return s.err
}

func (s *session) Clear() error               { return s.call("clear") }
func (s *session) Compact(focus string) error { return s.call("compact " + focus) }
func (s *session) AgentRecords(id event.AgentID) ([]transcript.Record, error) {
	if r, ok := s.records[id]; ok {
		return r, nil
	}
	return nil, errors.New("read transcript of " + string(id) + ": no such file")
}
func (s *session) MCPServers() []event.MCPServer    { return s.mcp }
func (s *session) SkillStatus() []event.SkillStatus { return s.skills }
func (s *session) HookStatus() []event.HookStatus   { return s.hooks }
func (s *session) Rules() []event.PermissionRule    { return s.rules }
func (s *session) AddRule(r event.PermissionRule) error {
	if err := s.call("add " + r.Kind + " " + r.Rule); err != nil {
		return err
	}
	r.Source = event.SourceSession
	s.rules = append(s.rules, r)
	return nil
}
func (s *session) RemoveRule(kind, rule string) error { return s.call("remove " + kind + " " + rule) }
func (s *session) StopAgent(id event.AgentID) error   { return s.call("stop " + string(id)) }
func (s *session) WindDownAgent(id event.AgentID) (bool, error) {
	return false, s.call("wind down " + string(id))
}
func (s *session) SendToAgent(id event.AgentID, text string) error {
	return s.call("send " + string(id) + ": " + text)
}
func (s *session) Background(id event.AgentID) error { return s.call("background " + string(id)) }
func (s *session) ContinueAgent(id event.AgentID, text string) error {
	return s.call("continue " + string(id) + ": " + text)
}
func (s *session) ResumeAgent(id event.AgentID) error { return s.call("resume " + string(id)) }
func (s *session) RetryAgent(id event.AgentID) error  { return s.call("retry " + string(id)) }

// harness runs commands as the root would, with what they act through.
type harness struct {
	t       *testing.T
	r       *Registry
	s       *session
	status  *status.Model
	layers  *overlay.Stack
	area    *agents.Area
	answers []string
	keys    []overlay.KeyGroup
}

func newHarness(t *testing.T, opts Options) *harness {
	t.Helper()
	styles := themes.New(themes.Dark())
	h := &harness{t: t, s: &session{records: map[event.AgentID][]transcript.Record{}}, status: status.New(&styles, nil), layers: &overlay.Stack{}}
	h.area = agents.New(agents.Config{Keys: agents.DefaultKeyMap(), Line: input.DefaultKeyMap(), Styles: &styles, Session: h.s,
		Status: h.status, Layers: h.layers, Expanded: func() bool { return false }})
	h.r = New(Env{Session: h.s, Status: h.status, Agents: h.area, Layers: h.layers, Styles: &styles, Options: opts,
		Answers: func() []string { return h.answers }, Keys: func() []overlay.KeyGroup { return h.keys }})
	return h
}

// run runs line and every Cmd it leads to, and returns their messages.
func (h *harness) run(line string, busy bool) []tea.Msg {
	h.t.Helper()
	return messages(h.r.Run(line, busy, "gpt-4.1"))
}

// result runs line and returns the one Result it brought back.
func (h *harness) result(line string) Result {
	h.t.Helper()
	for _, msg := range h.run(line, false) {
		if r, ok := msg.(Result); ok {
			return r
		}
	}
	h.t.Fatalf("%s brought no result; status %q", line, h.status.Text())
	return Result{}
}

// messages runs a Cmd and what it batches.
func messages(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range batch {
			out = append(out, messages(c)...)
		}
		return out
	}
	if msg == nil {
		return nil
	}
	return []tea.Msg{msg}
}

// contains fails unless text holds every want.
func contains(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, text)
		}
	}
}
