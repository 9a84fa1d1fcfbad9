package child

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/tools"
	"github.com/seed-e4e525a6/baton/engine/worktree"
)

// A child whose runner can keep it running without baton (Attacher) can
// be let go of when baton quits (Detach), and is found again by
// --continue (Reattach): a running one gets its pane back and its
// questions reach the cards; one that ended meanwhile delivers its
// result, as a background child does.

// home is the folder of child id in the session's state ("": the
// session is not recorded, so no child can be found again).
func (m *Manager) home(id event.AgentID) string {
	if m.opts.Transcript == nil {
		return ""
	}
	return filepath.Join(m.opts.Transcript.Path(), "children", string(id))
}

// Detach lets go of every running child that can outlive baton, as baton
// quits: each runs on, and --continue takes it up again. It returns how
// many were let go of.
func (m *Manager) Detach() int {
	n := 0
	for _, c := range m.all() {
		c.mu.Lock()
		h := c.handle
		c.mu.Unlock()
		if d, ok := h.(Detacher); ok && d.Detach() == nil {
			n++
		}
	}
	return n
}

// let records that baton let go of the child, which runs on: not an end,
// so its worktree stays as it is, for it, and --continue finds it again.
// Whatever waits for it here is told it was let go of.
func (c *Child) let(end Ending) {
	m := c.m
	if c.iso != nil {
		m.wt.forget(c.id) // the session's end must not remove a tree in use
	}
	c.emit(event.AgentDetached{Meta: c.stamp()})
	end.Status, end.Reason = event.StatusInterrupted, "baton let go of it: it runs on, and --continue takes it up again"
	c.cancel(nil)
	c.unlink()
	c.mu.Lock()
	person := c.personNotes
	c.mu.Unlock()
	m.settle(c, end, formatResult(end.Result, person, m.opts.Limits.ResultChars))
}

// CanAttach says whether the child started could be running without
// baton, or have left its result: its runner finds children again and
// its folder is there.
func (m *Manager) CanAttach(started event.AgentStarted) bool {
	if _, ok := m.opts.Runners[started.Runner].(Attacher); !ok || !started.Detachable {
		return false
	}
	home := m.home(started.Agent)
	if home == "" {
		return false
	}
	info, err := os.Stat(home)
	return err == nil && info.IsDir()
}

// Home is the folder of child id in the session's state, where a runner
// that can keep a child running without baton keeps what it needs ("":
// the session is not recorded).
func (m *Manager) Home(id event.AgentID) string { return m.home(id) }

// Reattach takes up again the children of a resumed session that ran on
// without baton (CanAttach), each as a child of the main agent, main, in
// the background: its events reach its pane, its questions the cards,
// and its result the main agent.
func (m *Manager) Reattach(started []event.AgentStarted, main agent.Caller) {
	for _, st := range started {
		c := newChild(m, st.Meta)
		c.ctx, c.cancel = context.WithCancelCause(m.ctx)
		c.unlink = func() bool { return true }
		c.started, c.begin, c.approved = st, st.Time, true
		m.register(c)
		if err := c.rejoin(main); err != nil {
			c.finish(Ending{Result: agent.Result{Status: event.StatusInterrupted, Reason: "it could not be taken up again: " + err.Error()}})
		}
	}
}

// rejoin rebuilds the spec of a child found again, in its worktree if it
// had one, and follows it on a goroutine of the session's.
func (c *Child) rejoin(main agent.Caller) error {
	m := c.m
	spec, err := m.specOf(c)
	if err != nil {
		return err
	}
	spec.Meta, spec.Caller, spec.Depth, spec.Background, spec.Runner = c.meta, main, 1, true, c.started.Runner
	c.ws = m.opts.Workspace
	if rec, ok := m.wt.records()[string(c.id)]; ok {
		if err := c.rejoinTree(rec, &spec); err != nil {
			return err
		}
	}
	c.spec, c.grants = &spec, permission.NewGrants(spec.Rules)
	if err := m.detach(c, "reattach"); err != nil {
		return err
	}
	history, _ := m.historyOf(c)
	c.seed = history
	return m.sess.Go(func() { c.finish(c.runFound()) })
}

// rejoinTree gives a child found again the worktree it works in.
func (c *Child) rejoinTree(rec worktree.Record, spec *Spec) error {
	m := c.m
	repo, err := worktree.Open(m.ctx, m.opts.Workspace.Root())
	if err != nil {
		return err
	}
	tree, err := repo.Reopen(m.ctx, rec)
	if err != nil {
		return err
	}
	ws, err := tools.NewWorkspace(tree.Workspace())
	if err != nil {
		return err
	}
	moved := m.typeSpec(spec.Type, "", ws.Root())
	spec.Toolbox.Sandbox, spec.Workspace, spec.Worktree = moved.Toolbox.Sandbox, moved.Workspace, moved.Worktree
	c.ws = ws
	c.iso = &isolated{w: m.wt, tree: tree, record: rec, meta: c.meta, from: "its worktree", caller: spec.Caller}
	m.wt.mu.Lock()
	m.wt.open[c.id] = c.iso
	m.wt.mu.Unlock()
	return nil
}

// runFound attaches to the child and waits for its end, bounded by the
// time limit it started with.
func (c *Child) runFound() Ending {
	m, spec := c.m, c.spec
	ctx, stop := context.WithDeadline(c.ctx, c.begin.Add(HardTimeout(spec.Timeout)))
	defer stop()
	m.countRunning(1)
	defer m.countRunning(-1)
	c.mu.Lock()
	h, err := m.opts.Runners[spec.Runner].(Attacher).Attach(ctx, c.job("", nil))
	if err == nil {
		c.handle = h
	}
	c.mu.Unlock()
	if err != nil {
		return Ending{Result: agent.Result{Status: event.StatusInterrupted, Reason: fmt.Sprintf("it could not be found again: %v", err)}}
	}
	<-h.Done()
	c.mu.Lock()
	c.handle = nil
	c.mu.Unlock()
	return h.Ending()
}
