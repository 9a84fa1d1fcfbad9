package process

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// answer answers one question of the child, as the session would answer
// the same question of a local child: a tool call is decided by the
// session's policy for this child, a tool that stays with baton runs
// here, a file is held in the session's lock table.
func (h *handle) answer(ctx context.Context, q question) reply {
	switch {
	case q.Authorize != nil:
		hold, err := h.authorize(ctx, *q.Authorize)
		r := errorReply(q.ID, err)
		r.Withhold = hold
		return r
	case q.Tool != nil:
		res, err := h.runParentTool(ctx, q.ID, *q.Tool)
		r := errorReply(q.ID, err)
		if err == nil {
			r.Result = &res
		}
		return r
	case q.Lock != "":
		return errorReply(q.ID, h.lock(ctx, q.ID, q.Lock))
	case q.Hook != nil && h.job.Link.Hooks != nil:
		adv, err := h.hook(ctx, *q.Hook)
		r := errorReply(q.ID, err)
		r.Advice = &adv
		return r
	}
	return errorReply(q.ID, errors.New("baton does not know this question"))
}

// withholder is an authorizer that can say, as data, what the agent's
// searches leave out: what a child in another process needs to apply
// the same rules (permission.Gate).
type withholder interface {
	Withholding(tool string) permission.Withholding
}

// authorize decides a tool call of the child and, for an allowed search,
// says what the rules keep from the model. What the tool is (read-only or
// not, its preview for a tool that stays here) is baton's own knowledge,
// never the child's word.
func (h *handle) authorize(ctx context.Context, a authorize) (*permission.Withholding, error) {
	req := agent.ToolRequest{CallID: a.CallID, Tool: a.Tool, Args: a.Args, Hook: a.Hook, Narrowed: a.Narrowed, Skills: a.Skills}
	if t := heldTool(h.job, a.Tool); t != nil {
		req.ReadOnly = t.ReadOnly()
		if pv, ok := t.(tools.Previewer); ok {
			req.Preview = func(ctx context.Context) (string, error) { return pv.Preview(ctx, a.Args) }
		}
	} else {
		t, ok := h.job.Spec.Toolbox.Build(h.job.Workspace).Get(a.Tool)
		if !ok {
			return nil, fmt.Errorf("tool %q is not available to this agent", a.Tool)
		}
		req.ReadOnly = t.ReadOnly()
		if _, ok := t.(tools.Previewer); ok {
			req.Preview = func(context.Context) (string, error) {
				if a.PreviewError != "" {
					return "", errors.New(a.PreviewError)
				}
				return a.Preview, nil
			}
		}
	}
	hold, err := h.job.Link.Authorize.Authorize(ctx, req)
	if err != nil || hold == nil {
		return nil, err
	}
	w, ok := h.job.Link.Authorize.(withholder)
	if !ok {
		return nil, fmt.Errorf("%s: baton cannot tell the child what its rules keep from a search", a.Tool)
	}
	data := w.Withholding(a.Tool)
	return &data, nil
}

// hook runs the session's hooks at a point of the child's loop.
func (h *handle) hook(ctx context.Context, p hookPoint) (agent.HookAdvice, error) {
	hooks := h.job.Link.Hooks
	switch p.At {
	case hookBeforeTool:
		return hooks.BeforeTool(ctx, p.Call)
	case hookAfterTool:
		return hooks.AfterTool(ctx, p.Call, p.Output), nil
	case hookStop:
		return hooks.Stop(ctx, p.Last, p.Active), nil
	case hookEnded:
		hooks.Ended(ctx, p.Last)
		return agent.HookAdvice{}, nil
	}
	return agent.HookAdvice{}, fmt.Errorf("no hook point %q", p.At)
}

// runParentTool runs a tool that stays with baton for the child; a tool
// acting for its caller (task) acts for the child, its batch readied in
// step with the child's.
func (h *handle) runParentTool(ctx context.Context, id int64, c toolCall) (tools.Result, error) {
	t := heldTool(h.job, c.Name)
	if t == nil {
		return tools.Result{}, fmt.Errorf("tool %q is not available to this agent", c.Name)
	}
	ct, isCaller := t.(agent.CallerTool)
	if !isCaller {
		return t.Run(ctx, c.Args)
	}
	all := make(chan struct{})
	h.mu.Lock()
	h.goes[id] = all
	h.mu.Unlock()
	spec := h.job.Spec
	caller := agent.Caller{Meta: spec.Meta, Depth: spec.Depth, Model: spec.Model,
		Tell: func(note string) { _ = h.Control(child.Control{Kind: child.Tell, Text: note}) }}
	stage := agent.JoinStage(func() { _ = h.in.write(down{Ready: id}) }, all)
	return ct.RunFor(ctx, agent.Call{ID: c.CallID, Args: c.Args, Caller: caller, Batch: c.Batch, Stage: stage})
}

// lock holds a file for a writer of the child in the session's lock
// table, which every agent writing in the same workspace shares.
func (h *handle) lock(ctx context.Context, id int64, path string) error {
	root := h.job.Workspace.Root()
	if !filepath.IsAbs(path) || path != filepath.Clean(path) || (path != root && !strings.HasPrefix(path, root+string(filepath.Separator))) {
		return fmt.Errorf("lock %s: not a file of the workspace", path)
	}
	ctx, giveUp := context.WithCancel(ctx)
	h.mu.Lock()
	h.locks[id] = giveUp
	h.mu.Unlock()
	unlock, err := h.job.Workspace.Lock(ctx, path)
	h.mu.Lock()
	defer h.mu.Unlock()
	_, wanted := h.locks[id]
	switch {
	case err != nil:
		delete(h.locks, id)
		giveUp()
		return err
	case !wanted: // the child gave up waiting meanwhile
		unlock()
		giveUp()
		return errors.New("the lock was given up")
	}
	h.locks[id] = func() {
		unlock()
		giveUp()
	}
	return nil
}

// unlock gives back a file the child held, or gives up its wait for it.
func (h *handle) unlock(id int64) {
	h.mu.Lock()
	release, ok := h.locks[id]
	delete(h.locks, id)
	h.mu.Unlock()
	if ok {
		release()
	}
}

// letGo frees what waits on a child that has ended: its callers' batches
// that will never be ready there, and the files it still held.
func (h *handle) letGo() {
	h.mu.Lock()
	for id, all := range h.goes {
		close(all)
		delete(h.goes, id)
	}
	ids := make([]int64, 0, len(h.locks))
	for id := range h.locks {
		ids = append(ids, id)
	}
	h.mu.Unlock()
	slices.Sort(ids)
	for _, id := range ids {
		h.unlock(id)
	}
}

// heldTool is the job's tool that stays with baton named name, or nil.
func heldTool(job child.Job, name string) tools.Tool {
	for _, t := range job.ParentTools() {
		if t.Name() == name {
			return t
		}
	}
	return nil
}
