package child

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/tools"
	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/engine/worktree"
)

// A child that ended before its work was done (stopped by a crash, a
// kill, a quit, the person, a failure or its time limit) keeps its id,
// its transcript and its worktree, so it can be taken up again: resumed
// from its transcript, where the tool calls it was running are marked as
// stopped, in the same worktree; or retried afresh with the same task.

// resumePrompt is what a resumed child is told when the person resumes
// it without saying more.
const resumePrompt = "You were interrupted before you finished: baton stopped while you worked. " +
	"Continue your task from where you stopped. Tool calls marked as stopped did not finish; run them again if you still need them. " +
	"Then give your final report."

// Resume continues a child that ended before it finished, from its
// transcript, in the background (/subagents resume N): a follow-up with
// its own id and pane, in the child's worktree if it had one, whose
// result is delivered to the main agent, main.
func (m *Manager) Resume(main agent.Caller, ref event.AgentID) error {
	prev, err := m.find(string(ref))
	if err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	prev = m.latest(prev)
	if err := resumable(prev); err != nil {
		return err
	}
	return m.Continue(main, prev.id, resumePrompt)
}

// resumable says why a child cannot be resumed: it runs, or it finished
// its work (a follow-up asks it more), or it never ran.
func resumable(c *Child) error {
	res, _, done := c.outcome()
	switch {
	case !done:
		return fmt.Errorf("resume: #%d %s is still running", c.meta.Number, c.id)
	case res.Status == event.StatusCompleted:
		return fmt.Errorf("resume: #%d %s completed its task; /subagents send %d asks it more", c.meta.Number, c.id, c.meta.Number)
	case res.Status == event.StatusDenied:
		return fmt.Errorf("resume: #%d %s never ran (denied); /subagents retry %d starts it", c.meta.Number, c.id, c.meta.Number)
	}
	return nil
}

// Retry starts a child's task afresh in the background (/subagents retry
// N): a new child with the same type, prompt, description, model and
// isolation, and none of the earlier one's history; its result is
// delivered to the main agent, main.
func (m *Manager) Retry(main agent.Caller, ref event.AgentID) error {
	prev, err := m.find(string(ref))
	if err != nil {
		return fmt.Errorf("retry: %w", err)
	}
	if _, _, done := m.latest(prev).outcome(); !done {
		return fmt.Errorf("retry: #%d %s is still running", prev.meta.Number, prev.id)
	}
	tc, err := m.retryCall(m.origin(prev))
	if err != nil {
		return err
	}
	return m.startAsked(main, tc, "retry "+string(ref))
}

// retryCall is the task call that starts prev's task again: from its spec
// while this session holds it, else from its record.
func (m *Manager) retryCall(prev *Child) (taskCall, error) {
	prev.mu.Lock()
	spec, started := prev.spec, prev.started
	prev.mu.Unlock()
	tc := taskCall{Description: prev.meta.Description, Background: true, Isolation: IsolationShared,
		Prompt: started.Prompt, SubagentType: started.TypeName, Model: started.Model}
	if spec != nil {
		tc.Prompt, tc.SubagentType, tc.Model = spec.Prompt, spec.Type.Name, spec.Model
	}
	switch {
	case tc.Prompt == "":
		return taskCall{}, fmt.Errorf("retry: #%d %s never started, so its task is not known; ask the main agent to start it again", prev.meta.Number, prev.id)
	case tc.SubagentType == "" || tc.SubagentType == "custom":
		return taskCall{}, fmt.Errorf("retry: #%d %s was a temporary agent, whose instructions are the main agent's to give again; ask it", prev.meta.Number, prev.id)
	}
	if (spec != nil && spec.Worktree != "") || m.hadWorktree(prev.id) {
		tc.Isolation = IsolationWorktree
	}
	return tc, nil
}

// origin is the child whose task call started c's line of follow-ups:
// its task is what a retry starts again.
func (m *Manager) origin(c *Child) *Child {
	for {
		c.mu.Lock()
		prev, continues := c.prev, c.started.Continues
		c.mu.Unlock()
		if prev == nil && continues != "" {
			prev, _ = m.get(continues)
		}
		if prev == nil {
			return c
		}
		c = prev
	}
}

// hadWorktree says whether the child of id worked in a worktree of its
// own that is still there.
func (m *Manager) hadWorktree(id event.AgentID) bool {
	m.wt.mu.Lock()
	_, open := m.wt.open[id]
	m.wt.mu.Unlock()
	if open {
		return true
	}
	_, ok := m.wt.records()[string(id)]
	return ok
}

// adopt gives c, a follow-up, the worktree of the child it continues when
// that child had one and nothing of its change has been reviewed: an
// interrupted writer goes on with its own files, and its change is
// reviewed once, as the follow-up's. It returns nil when there is no such
// worktree, or when part of the change was already decided (that change
// is reviewed on its own, and the follow-up gets a worktree of its own if
// it needs one, so nothing is applied twice).
func (m *Manager) adopt(ctx context.Context, c, prev *Child, spec *Spec) (*isolated, error) {
	w := m.wt
	w.mu.Lock()
	iso, open := w.open[prev.id]
	w.mu.Unlock()
	var (
		rec  worktree.Record
		tree worktree.Tree
	)
	if open {
		iso.mu.Lock()
		done := iso.finished || decided(iso.review)
		if !done {
			iso.finished = true // its review is the follow-up's now
		}
		iso.mu.Unlock()
		if done {
			return nil, nil
		}
		w.forget(prev.id)
		rec, tree = iso.record, iso.tree
		m.sess.Emit(event.ReviewFinished{Meta: prev.stamp(), Change: event.Change{State: event.ChangeGone, Worktree: tree.Dir},
			Summary: fmt.Sprintf("its worktree went on to #%d %s, which continues it", c.meta.Number, c.id)})
	} else {
		r, ok := w.records()[string(prev.id)]
		if !ok || len(r.Decisions) > 0 {
			return nil, nil
		}
		repo, err := worktree.Open(ctx, m.opts.Workspace.Root())
		if err != nil {
			return nil, fmt.Errorf("resume in the worktree of %s: %w", prev.id, err)
		}
		if tree, err = repo.Reopen(ctx, r); err != nil {
			return nil, fmt.Errorf("resume in the worktree of %s: %w", prev.id, err)
		}
		rec = r
	}
	ws, err := tools.NewWorkspace(tree.Workspace())
	if err != nil {
		return nil, fmt.Errorf("resume in the worktree of %s: %w", prev.id, err)
	}
	rec.Agent, rec.Description, rec.State, rec.Decisions = string(c.id), c.meta.Description, worktree.StateRunning, nil
	if err := rec.Save(); err != nil {
		return nil, fmt.Errorf("resume in the worktree of %s: %w", prev.id, err)
	}
	moved := m.typeSpec(spec.Type, "", ws.Root())
	spec.Toolbox.Sandbox, spec.Workspace, spec.Worktree = moved.Toolbox.Sandbox, moved.Workspace, moved.Worktree
	c.ws = ws
	adopted := &isolated{w: w, tree: tree, record: rec, meta: c.meta, caller: spec.Caller,
		from: fmt.Sprintf("the worktree of #%d %s", prev.meta.Number, prev.id)}
	w.mu.Lock()
	w.open[c.id] = adopted
	w.mu.Unlock()
	return adopted, nil
}

// decided says whether anything of a change under review was decided.
func decided(r event.Review) bool {
	for _, f := range r.Files {
		if f.Decision != event.DecisionPending {
			return true
		}
		for _, h := range f.Hunks {
			if h.Decision != event.DecisionPending {
				return true
			}
		}
	}
	return false
}

// Interrupted is the end of a child that was running when baton stopped
// without ending it (a crash, a kill -9): what it did, read back from its
// transcript (its last text, its tool calls and steps, how long it ran),
// and, for a worktree child, its change, which then waits for review as
// any finished child's does, unless the child is resumed in its worktree.
func (m *Manager) Interrupted(started event.AgentStarted, now time.Time) event.AgentFinished {
	fin := event.AgentFinished{Meta: started.Meta, Status: event.StatusInterrupted,
		Reason: "baton stopped while this sub-agent ran", Transcript: started.Transcript}
	fin.Time = now
	if m.opts.Transcript != nil {
		fin.Text, fin.Stats = partialWork(m.opts.Transcript, started)
	}
	fin.Result = formatResult(agent.Result{Text: fin.Text, Status: fin.Status, Reason: fin.Reason, Stats: fin.Stats}, nil, m.opts.Limits.ResultChars)
	if rec, ok := m.wt.records()[string(started.Agent)]; ok && rec.State == worktree.StateRunning {
		fin.Change = m.wt.leftBy(rec)
	}
	return fin
}

// partialWork is what a child's transcript says it did: the text of its
// last message, its tool calls, its steps and how long it ran.
func partialWork(dir *transcript.Dir, started event.AgentStarted) (string, event.Stats) {
	var (
		text  string
		stats event.Stats
		last  time.Time
	)
	records, _, err := dir.Read(string(started.Agent))
	if err != nil {
		return "", stats
	}
	for _, rec := range records {
		last = rec.Time
		switch rec.Kind {
		case transcript.KindMessage:
			var msg openai.ChatCompletionMessage
			if json.Unmarshal(rec.Data, &msg) == nil && msg.Role == openai.ChatMessageRoleAssistant {
				stats.Steps++
				stats.ToolCalls += len(msg.ToolCalls)
				if msg.Content != "" {
					text = msg.Content
				}
			}
		}
	}
	if !started.Time.IsZero() && last.After(started.Time) {
		stats.Duration = last.Sub(started.Time)
	}
	return text, stats
}

// leftBy is the change a worktree child left when baton stopped while it
// ran: it waits for review from now on, as any finished child's does.
func (w *worktrees) leftBy(rec worktree.Record) *event.Change {
	ctx := w.m.ctx
	repo, err := worktree.Open(ctx, w.m.opts.Workspace.Root())
	if err != nil {
		return &event.Change{State: event.ChangeKept, Worktree: rec.Dir}
	}
	tree, err := repo.Reopen(ctx, rec)
	if err != nil {
		return &event.Change{State: event.ChangeKept, Worktree: rec.Dir}
	}
	change, err := tree.Diff(ctx)
	if err != nil || len(change.Files) == 0 {
		c := changeOf(change, event.ChangeNone)
		c.Worktree = rec.Dir
		if err != nil {
			c.State = event.ChangeKept
		}
		return &c
	}
	rec.State = worktree.StatePending
	_ = rec.Save() // at worst it stays "running", and resuming still finds it
	c := changeOf(change, event.ChangePending)
	c.Worktree = rec.Dir
	return &c
}
