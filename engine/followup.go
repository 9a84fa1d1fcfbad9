package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// A follow-up asks a finished child more: a new child (with its own id,
// card and pane) starts from the earlier child's history, with the same
// type, tools and model, and gets the new prompt as its next message.
// Asking the earlier id again continues the newest child of that line.

// followUp resolves a task call with resume: its arguments, the spec and
// history to start from, and the child it continues.
func (d *delegator) followUp(_ context.Context, ref string, raw json.RawMessage) (taskArgs, childSpec, []openai.ChatCompletionMessage, *childRun, error) {
	args, err := parseFollowUpArgs(raw)
	if err != nil {
		return args, childSpec{}, nil, nil, err
	}
	prev, err := d.find(ref)
	if err != nil {
		return args, childSpec{}, nil, nil, fmt.Errorf("resume: %w", err)
	}
	prev = d.latest(prev)
	res, _, done := prev.outcome()
	switch {
	case !done:
		return args, childSpec{}, nil, nil, fmt.Errorf("resume: #%d %s is still running; task_wait waits for it, and resume works once it has ended", prev.number, prev.id)
	case prev.started.Time.IsZero():
		return args, childSpec{}, nil, nil, fmt.Errorf("resume: #%d %s never ran (%s), so it has nothing to continue; start a new sub-agent", prev.number, prev.id, res.Status)
	}
	spec, err := d.specOf(prev)
	if err != nil {
		return args, childSpec{}, nil, nil, err
	}
	history, err := d.historyOf(prev)
	if err != nil {
		return args, childSpec{}, nil, nil, err
	}
	if args.TimeoutS > 0 {
		spec.timeout = time.Duration(args.TimeoutS) * time.Second
	}
	if args.Description == "" {
		args.Description = prev.meta.Description
	}
	args.Description = fmt.Sprintf("continue #%d: %s", prev.number, args.Description)
	return args, spec, history, prev, nil
}

// followUpTitle is the title of a task call that resumes ref: "task
// [Explore] continue #3: description", the type being the earlier
// child's (the call names none).
func (t *taskTool) followUpTitle(ref, description string) string {
	prev, err := t.d.find(ref)
	if err != nil {
		return strings.TrimSpace(fmt.Sprintf("task continue %s: %s", ref, description))
	}
	prev = t.d.latest(prev)
	prev.mu.Lock()
	kind, number := prev.meta.AgentType, prev.number
	if description == "" {
		description = prev.meta.Description
	}
	prev.mu.Unlock()
	return fmt.Sprintf("task [%s] continue #%d: %s", kind, number, description)
}

// latest follows a child's line of follow-ups to the newest one that ran.
func (d *delegator) latest(r *childRun) *childRun {
	for {
		r.mu.Lock()
		next := r.continuedBy
		r.mu.Unlock()
		n, ok := d.run(next)
		if next == "" || !ok {
			return r
		}
		r = n
	}
}

// claim makes id the follow-up of prev, so two follow-ups never fork
// one line; unclaim undoes it for a follow-up that never ran.
func claim(prev *childRun, id event.AgentID) error {
	if prev == nil {
		return nil
	}
	prev.mu.Lock()
	defer prev.mu.Unlock()
	if prev.continuedBy != "" {
		return fmt.Errorf("resume: #%d %s is already being continued by %s; resume that one", prev.number, prev.id, prev.continuedBy)
	}
	prev.continuedBy = id
	return nil
}

func unclaim(prev *childRun, id event.AgentID) {
	if prev == nil {
		return
	}
	prev.mu.Lock()
	defer prev.mu.Unlock()
	if prev.continuedBy == id {
		prev.continuedBy = ""
	}
}

// specOf is the spec a child ran with: kept in memory, or rebuilt from
// its AgentStarted after a quit, never with tools it did not have.
func (d *delegator) specOf(r *childRun) (childSpec, error) {
	if r.spec != nil {
		return *r.spec, nil
	}
	st := r.started
	if st.TypeName == "" {
		return childSpec{}, fmt.Errorf("resume: the record of #%d %s does not name its type; start a new sub-agent", r.number, r.id)
	}
	a := taskArgs{SubagentType: st.TypeName}
	if st.TypeName == "custom" {
		a.SubagentType = ""
	}
	typ, err := d.pickType(a)
	if err != nil {
		return childSpec{}, fmt.Errorf("resume #%d: %w", r.number, err)
	}
	box := d.childBox(typ)
	spec := childSpec{typ: typ, box: box, tools: d.childTools(d.ws, typ, box).Only(st.Tools), model: st.Model, maxSteps: st.MaxSteps, timeout: st.Timeout, workspace: d.workspace}
	if spec.maxSteps <= 0 {
		spec.maxSteps = d.limits.ChildStepsReadOnly
	}
	if spec.timeout <= 0 {
		spec.timeout = d.limits.ChildTimeout
	}
	return spec, nil
}

// historyOf is a finished child's history: in memory, or read back from
// its transcript after a quit, repaired as a resumed main history is.
func (d *delegator) historyOf(r *childRun) ([]openai.ChatCompletionMessage, error) {
	if r.agent != nil {
		return slices.Clone(r.agent.history), nil
	}
	if d.s.cfg.Transcript == nil {
		return nil, fmt.Errorf("resume: the history of #%d %s was not kept (this session is not recorded)", r.number, r.id)
	}
	records, _, err := d.s.cfg.Transcript.Read(string(r.id))
	if err != nil {
		return nil, fmt.Errorf("resume: read the transcript of %s: %w", r.id, err)
	}
	var history []openai.ChatCompletionMessage
	for _, rec := range records {
		var m openai.ChatCompletionMessage
		if rec.Kind == transcript.KindMessage && json.Unmarshal(rec.Data, &m) == nil {
			history = append(history, m)
		}
	}
	if len(history) == 0 || history[0].Role != openai.ChatMessageRoleSystem {
		return nil, errors.New("resume: the transcript of " + string(r.id) + " holds no conversation to continue")
	}
	history, _ = repairHistory(history)
	return history, nil
}

// ContinueAgent asks a finished child more from the keyboard
// (/subagents send N to a finished child): a follow-up of it runs in the
// background, without a card since the person asked for it, and its
// result is delivered to the main agent.
func (s *Session) ContinueAgent(ref event.AgentID, prompt string) error {
	x := taskExtras{Resume: string(ref), Background: true}
	raw, err := json.Marshal(struct {
		Resume string `json:"resume"`
		Prompt string `json:"prompt"`
	}{x.Resume, prompt})
	if err != nil {
		return fmt.Errorf("continue %s: %w", ref, err)
	}
	p, err := s.deleg.ready(s.ctx, s.main, "", raw, x)
	if err != nil {
		return fmt.Errorf("continue %s: %w", ref, err)
	}
	p.answer = func(context.Context) event.Answer { return event.Answer{Decision: event.Allow} }
	p.takePlace()
	p.entry.approve()
	if err := s.detach(p.entry, "person"); err != nil {
		return err
	}
	p.launch(p.args.Prompt)
	return nil
}
