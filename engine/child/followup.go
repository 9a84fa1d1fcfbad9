package child

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// A follow-up asks a finished child more: a new child (with its own id,
// card and pane) starts from the earlier child's history, with the same
// type, tools and model, and gets the new prompt as its next message.
// Asking the earlier id again continues the newest child of that line.

// followUp resolves a task call with resume: the spec and history to
// start from, and the child it continues.
func (m *Manager) followUp(tc taskCall, caller agent.Caller) (Spec, []openai.ChatCompletionMessage, *Child, error) {
	prev, err := m.find(tc.Resume)
	if err != nil {
		return Spec{}, nil, nil, fmt.Errorf("resume: %w", err)
	}
	prev = m.latest(prev)
	res, _, done := prev.outcome()
	switch {
	case !done:
		return Spec{}, nil, nil, fmt.Errorf("resume: #%d %s is still running; task_wait waits for it, and resume works once it has ended", prev.meta.Number, prev.id)
	case prev.startedAt().IsZero():
		return Spec{}, nil, nil, fmt.Errorf("resume: #%d %s never ran (%s), so it has nothing to continue; start a new sub-agent", prev.meta.Number, prev.id, res.Status)
	}
	spec, err := m.specOf(prev)
	if err != nil {
		return Spec{}, nil, nil, err
	}
	history, err := m.historyOf(prev)
	if err != nil {
		return Spec{}, nil, nil, err
	}
	if tc.TimeoutS > 0 {
		spec.Timeout = time.Duration(tc.TimeoutS) * time.Second
	}
	spec.lowerTo(tc.Budget)
	spec.Prompt, spec.Caller, spec.Depth, spec.Background = tc.Prompt, caller, caller.Depth+1, tc.Background
	if len(tc.Verify) > 0 {
		spec.Verify = tc.Verify
	}
	return spec, history, prev, nil
}

// followUpDescription is a follow-up's description: "continue #3: …",
// with the earlier child's when the call gives none.
func (c *Child) followUpDescription(description string) string {
	if description == "" {
		description = c.meta.Description
	}
	return fmt.Sprintf("continue #%d: %s", c.meta.Number, description)
}

// followUpTitle is the title of a task call that resumes ref: "task
// [Explore] continue #3: description", the type being the earlier
// child's (the call names none).
func (m *Manager) followUpTitle(ref, description string) string {
	prev, err := m.find(ref)
	if err != nil {
		return strings.TrimSpace(fmt.Sprintf("task continue %s: %s", ref, description))
	}
	prev = m.latest(prev)
	return fmt.Sprintf("task [%s] %s", prev.meta.AgentType, prev.followUpDescription(description))
}

// startedAt is when the child began its loop (zero: it never did).
func (c *Child) startedAt() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.started.Time
}

// latest follows a child's line of follow-ups to the newest one that ran.
func (m *Manager) latest(c *Child) *Child {
	for {
		c.mu.Lock()
		next := c.continuedBy
		c.mu.Unlock()
		n, ok := m.get(next)
		if next == "" || !ok {
			return c
		}
		c = n
	}
}

// claim makes id the follow-up of prev, so two follow-ups never fork
// one line; unclaim undoes it for a follow-up that never ran.
func claim(prev *Child, id event.AgentID) error {
	if prev == nil {
		return nil
	}
	prev.mu.Lock()
	defer prev.mu.Unlock()
	if prev.continuedBy != "" {
		return fmt.Errorf("resume: #%d %s is already being continued by %s; resume that one", prev.meta.Number, prev.id, prev.continuedBy)
	}
	prev.continuedBy = id
	return nil
}

func unclaim(prev *Child, id event.AgentID) {
	if prev == nil {
		return
	}
	prev.mu.Lock()
	defer prev.mu.Unlock()
	if prev.continuedBy == id {
		prev.continuedBy = ""
	}
}

// specOf is the spec a child ran with, working in the session's tree: kept
// in memory, or rebuilt from its AgentStarted after a quit, never with
// tools it did not have.
func (m *Manager) specOf(c *Child) (Spec, error) {
	root := m.opts.Workspace.Root()
	if c.spec != nil {
		spec := m.typeSpec(c.spec.Type, "", root)
		spec.Toolbox.Names, spec.Parent = c.spec.Toolbox.Names, c.spec.Parent
		spec.Model, spec.MaxSteps, spec.Timeout, spec.Rules, spec.Shown, spec.Runner = c.spec.Model, c.spec.MaxSteps, c.spec.Timeout, c.spec.Rules, c.spec.Shown, c.spec.Runner
		spec.Skills, spec.Budget = c.spec.Skills, c.spec.Budget
		return spec, nil
	}
	st := c.started
	if st.TypeName == "" {
		return Spec{}, fmt.Errorf("resume: the record of #%d %s does not name its type; start a new sub-agent", c.meta.Number, c.id)
	}
	name := st.TypeName
	if name == "custom" {
		name = ""
	}
	typ, err := m.pickType(name)
	if err != nil {
		return Spec{}, fmt.Errorf("resume #%d: %w", c.meta.Number, err)
	}
	spec := m.typeSpec(typ, "", root)
	spec.Toolbox.Names = slices.DeleteFunc(spec.Toolbox.Names, func(n string) bool { return !slices.Contains(st.Tools, n) })
	spec.Parent = slices.DeleteFunc(spec.Parent, func(t tools.Tool) bool { return !slices.Contains(st.Tools, t.Name()) })
	spec.Model, spec.MaxSteps, spec.Timeout, spec.Budget = st.Model, st.MaxSteps, st.Timeout, st.Budget
	if spec.MaxSteps <= 0 {
		spec.MaxSteps = m.opts.Limits.StepsReadOnly
	}
	if spec.Timeout <= 0 {
		spec.Timeout = m.opts.Limits.Timeout
	}
	if spec.Runner, err = m.runnerOf(typ); err != nil {
		return Spec{}, err
	}
	return spec, nil
}

// historyOf is a finished child's history: in memory, or read back from
// its transcript after a quit, repaired as a resumed main history is.
func (m *Manager) historyOf(c *Child) ([]openai.ChatCompletionMessage, error) {
	c.mu.Lock()
	history := slices.Clone(c.history)
	c.mu.Unlock()
	if len(history) > 0 {
		return history, nil
	}
	if m.opts.Transcript == nil {
		return nil, fmt.Errorf("resume: the history of #%d %s was not kept (this session is not recorded)", c.meta.Number, c.id)
	}
	records, _, err := m.opts.Transcript.Read(string(c.id))
	if err != nil {
		return nil, fmt.Errorf("resume: read the transcript of %s: %w", c.id, err)
	}
	for _, rec := range records {
		var msg openai.ChatCompletionMessage
		if rec.Kind == transcript.KindMessage && json.Unmarshal(rec.Data, &msg) == nil {
			history = append(history, msg)
		}
	}
	if len(history) == 0 || history[0].Role != openai.ChatMessageRoleSystem {
		return nil, errors.New("resume: the transcript of " + string(c.id) + " holds no conversation to continue")
	}
	history, _ = agent.RepairHistory(history)
	return history, nil
}

// Continue asks a finished child more from the keyboard (/subagents send
// N to a finished child): a follow-up of it runs in the background,
// without a card since the person asked for it, and its result is
// delivered to the main agent, whose caller is main.
func (m *Manager) Continue(main agent.Caller, ref event.AgentID, prompt string) error {
	return m.startAsked(main, taskCall{Resume: string(ref), Prompt: prompt, Background: true}, "continue "+string(ref))
}

// startAsked starts the child of tc that the person asked for from the
// keyboard: read and readied as the model's task call would be, approved
// without a card (the person's asking is the approval), detached into the
// background and launched. what names the request in its errors.
func (m *Manager) startAsked(main agent.Caller, tc taskCall, what string) error {
	raw, err := json.Marshal(tc)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if tc, err = readTaskCall(raw, m.opts.Types); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	c, err := m.ready(m.ctx, tc, agent.Call{Args: raw, Caller: main})
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	c.answer = func(context.Context) event.Answer { return event.Answer{Decision: event.Allow} }
	c.takePlace()
	c.approve()
	if err := m.detach(c, "person"); err != nil {
		return err
	}
	c.launch(c.spec.Prompt)
	return nil
}
