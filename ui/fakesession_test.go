package ui

import (
	"errors"
	"strings"
	"sync"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// fakeSession records what the UI asks of it; the test feeds its event
// channel. It never blocks.
type fakeSession struct {
	events chan event.Event

	mu         sync.Mutex
	model      string
	submitted  []string
	interrupts int
	clears     int
	compacts   []string
	submitErr  error
	stopped    []event.AgentID
	sent       []string // "id: text"
	// backgrounded and continued are the b key's and /subagents send's
	// calls ("id: text").
	backgrounded []event.AgentID
	continued    []string
	// detached counts Detach calls (the quit question's d).
	detached int
	history  []event.Event
	records  map[event.AgentID][]transcript.Record
	mcp      []event.MCPServer
	rules    []event.PermissionRule
	skills   []event.SkillStatus
	hooks    []event.HookStatus
	modes    []event.AgentMode // SetAgentMode's calls
	paths    []string          // what MentionPaths lists
	walks    int               // how often it was asked
	shell    []string          // RunShell's commands
	id       string            // what ID says
}

func newFakeSession() *fakeSession {
	return &fakeSession{events: make(chan event.Event, 4096), model: "gpt-4.1"}
}

func (f *fakeSession) Events() <-chan event.Event { return f.events }

func (f *fakeSession) Submit(prompt string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.submitErr != nil {
		return f.submitErr
	}
	f.submitted = append(f.submitted, prompt)
	return nil
}

func (f *fakeSession) Interrupt() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.interrupts++
}

func (f *fakeSession) Model() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.model
}

func (f *fakeSession) SetModel(name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.model = name
}

func (f *fakeSession) Clear() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.clears++
	return nil
}

func (f *fakeSession) Compact(focus string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.compacts = append(f.compacts, focus)
	return nil
}

func (f *fakeSession) StopAgent(id event.AgentID) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopped = append(f.stopped, id)
	return nil
}

func (f *fakeSession) WindDownAgent(id event.AgentID) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopped = append(f.stopped, id)
	return false, nil
}

func (f *fakeSession) SendToAgent(id event.AgentID, text string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, string(id)+": "+text)
	return nil
}

func (f *fakeSession) Background(id event.AgentID) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.backgrounded = append(f.backgrounded, id)
	return nil
}

func (f *fakeSession) ContinueAgent(id event.AgentID, text string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.continued = append(f.continued, string(id)+": "+text)
	return nil
}

func (f *fakeSession) Detach() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.detached++
	return 1
}

func (f *fakeSession) ResumeAgent(id event.AgentID) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.continued = append(f.continued, "resume "+string(id))
	return nil
}

func (f *fakeSession) RetryAgent(id event.AgentID) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.continued = append(f.continued, "retry "+string(id))
	return nil
}

func (f *fakeSession) History() []event.Event { return f.history }

func (f *fakeSession) AgentRecords(id event.AgentID) ([]transcript.Record, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	records, ok := f.records[id]
	if !ok {
		return nil, errors.New("read transcript of " + string(id) + ": no such file")
	}
	return records, nil
}

// calls returns what was stopped and sent so far.
func (f *fakeSession) calls() (stopped []event.AgentID, sent []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]event.AgentID(nil), f.stopped...), append([]string(nil), f.sent...)
}

func (f *fakeSession) prompts() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.submitted...)
}

func (f *fakeSession) MCPServers() []event.MCPServer {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.mcp
}

func (f *fakeSession) Rules() []event.PermissionRule {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]event.PermissionRule(nil), f.rules...)
}

func (f *fakeSession) AddRule(r event.PermissionRule) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !strings.HasSuffix(r.Rule, ")") && strings.Contains(r.Rule, "(") {
		return errors.New("add rule: rule " + r.Rule + ": the pattern must end with ')'")
	}
	r.Source = event.SourceSession
	f.rules = append(f.rules, r)
	return nil
}

func (f *fakeSession) RemoveRule(kind, rule string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, r := range f.rules {
		if r.Kind == kind && r.Rule == rule {
			f.rules = append(f.rules[:i], f.rules[i+1:]...)
			return nil
		}
	}
	return errors.New("remove rule: no " + kind + " rule " + rule)
}

func (f *fakeSession) SkillStatus() []event.SkillStatus {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.skills
}

func (f *fakeSession) HookStatus() []event.HookStatus {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.hooks
}

func (f *fakeSession) SetAgentMode(mode event.AgentMode) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.modes = append(f.modes, mode)
	return nil
}

func (f *fakeSession) MentionPaths() ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.walks++
	return f.paths, nil
}

func (f *fakeSession) RunShell(command string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.submitErr != nil {
		return f.submitErr
	}
	f.shell = append(f.shell, command)
	return nil
}

func (f *fakeSession) ID() string { return f.id }
