package agents

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/pane"
	"github.com/seed-e4e525a6/baton/ui/review"
	"github.com/seed-e4e525a6/baton/ui/status"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// What the person does with a child. Every session call runs in a Cmd
// that captures the session and the child's id, never the area; what it
// reports comes back as a status.Said.

// Stop winds one child down: it reports what it has in one last step
// without tools and its pane folds; stopping it again aborts it at once.
func (a *Area) Stop(p *pane.Pane) tea.Cmd {
	if !p.Live() {
		a.cfg.Status.Set(status.Error, fmt.Sprintf("stop: %s already ended (%s)", Name(p), p.State()))
		return nil
	}
	a.cfg.Status.SetTransient(status.Warning, "winding down "+Name(p)+": it reports what it has; stop again to abort", status.Child, p.ID())
	s, id, name := a.cfg.Session, p.ID(), Name(p)
	return func() tea.Msg {
		aborted, err := s.WindDownAgent(id)
		switch {
		case err != nil:
			return status.Said{Level: status.Error, Text: fmt.Sprintf("stop %s: %v", id, err)}
		case aborted:
			return status.Said{Level: status.Warning, Text: "aborted " + name + " at once"}
		}
		return nil
	}
}

// StopAll stops every running child.
func (a *Area) StopAll() tea.Cmd {
	a.cfg.Status.SetTransient(status.Warning, "stopping every sub-agent…", status.Child, status.AllChildren)
	return a.call("all", func(s Session, id event.AgentID) error { return s.StopAgent(id) }, "stop %s: %v")
}

// Send delivers a message into a running child; its AgentMessage event
// shows it in its pane once delivered.
func (a *Area) Send(id event.AgentID, text string) tea.Cmd {
	a.cfg.Status.SetTransient(status.Info, "message queued for "+termtext.Clean(string(id))+"; it reads it before its next step", status.Child, id)
	return a.call(id, func(s Session, id event.AgentID) error { return s.SendToAgent(id, text) }, "send to %s: %v")
}

// Continue asks a finished child more; the follow-up's own card-less
// pane and its result follow as events.
func (a *Area) Continue(p *pane.Pane, text string) tea.Cmd {
	a.cfg.Status.Set(status.Info, "continuing "+Name(p)+" in the background; its answer reaches the main agent")
	return a.call(p.ID(), func(s Session, id event.AgentID) error { return s.ContinueAgent(id, text) }, "")
}

// Resume continues a child that ended before it finished from its
// transcript, in its worktree if it had one; the follow-up's pane and its
// result follow as events.
func (a *Area) Resume(p *pane.Pane) tea.Cmd {
	if p.Live() {
		a.cfg.Status.Set(status.Error, fmt.Sprintf("resume: %s is still %s", Name(p), p.State()))
		return nil
	}
	a.cfg.Status.Set(status.Info, "resuming "+Name(p)+" in the background; its answer reaches the main agent")
	return a.call(p.ID(), func(s Session, id event.AgentID) error { return s.ResumeAgent(id) }, "")
}

// Retry starts a finished child's task afresh, as a new child in the
// background.
func (a *Area) Retry(p *pane.Pane) tea.Cmd {
	if p.Live() {
		a.cfg.Status.Set(status.Error, fmt.Sprintf("retry: %s is still %s", Name(p), p.State()))
		return nil
	}
	a.cfg.Status.Set(status.Info, "retrying the task of "+Name(p)+" in the background; its answer reaches the main agent")
	return a.call(p.ID(), func(s Session, id event.AgentID) error { return s.RetryAgent(id) }, "")
}

// Background lets the main agent's task call go on without the child:
// the header counts those still running, and their results reach the
// main agent later (a wake turn opens with "[#3 done]").
func (a *Area) Background(p *pane.Pane) tea.Cmd {
	switch {
	case p.Background():
		a.cfg.Status.Set(status.Info, Name(p)+" already runs in the background")
		return nil
	case p.Meta().Parent != event.MainAgent:
		a.cfg.Status.Set(status.Error, "background: only the main agent's sub-agents can run in the background")
		return nil
	case !canBackground(p):
		a.cfg.Status.Set(status.Error, fmt.Sprintf("background: %s is %s", Name(p), p.State()))
		return nil
	}
	a.cfg.Status.Set(status.Info, Name(p)+" goes on in the background; its result reaches the main agent when it ends")
	return a.call(p.ID(), func(s Session, id event.AgentID) error { return s.Background(id) }, "")
}

// canBackground says whether b can send the pane's child to the
// background: a child of the main agent, approved, still running and
// not there already.
func canBackground(p *pane.Pane) bool {
	switch p.State() {
	case pane.Queued, pane.Running, pane.WaitingForApproval:
		return p.Meta().Parent == event.MainAgent && !p.Background()
	}
	return false
}

// call runs a session call on child id in a Cmd; a failure is said, in
// words of format (the id and the error) or the error's own.
func (a *Area) call(id event.AgentID, do func(Session, event.AgentID) error, format string) tea.Cmd {
	s := a.cfg.Session
	return func() tea.Msg {
		err := do(s, id)
		switch {
		case err == nil:
			return nil
		case format == "":
			return status.Said{Level: status.Error, Text: err.Error()}
		}
		return status.Said{Level: status.Error, Text: fmt.Sprintf(format, id, err)}
	}
}

// openTranscript shows a child's transcript full screen, drawn with the
// conversation's blocks; x in it stops the child.
func (a *Area) openTranscript(p *pane.Pane) {
	stop := func() tea.Cmd { return a.Stop(p) }
	a.cfg.Layers.Push(overlay.NewTranscript(p, a.cfg.Draw, a.cfg.Transcript, a.cfg.Expanded(), stop))
}

// openMessage opens the line whose text goes into a running child.
func (a *Area) openMessage(p *pane.Pane) {
	if p.State() != pane.Running && p.State() != pane.WaitingForApproval {
		a.cfg.Status.Set(status.Error, fmt.Sprintf("message: %s is %s; only a running sub-agent takes messages", Name(p), p.State()))
		return
	}
	id := p.ID()
	a.cfg.Layers.Push(NewMessage(Name(p), a.cfg.Line, a.cfg.Styles, a.cfg.Status, func(text string) tea.Cmd { return a.Send(id, text) }))
}

// OpenReview loads the review of p's change and opens it over
// everything; closed without a decision, it says how to come back.
func (a *Area) OpenReview(p *pane.Pane) tea.Cmd {
	r, ok := a.cfg.Session.(review.Reviewer)
	switch {
	case !ok:
		a.cfg.Status.Set(status.Error, "this session cannot review changes")
		return nil
	case !p.PendingReview():
		a.cfg.Status.Set(status.Error, fmt.Sprintf("%s has no change waiting for review", Name(p)))
		return nil
	}
	said := a.cfg.Status
	closed := func(done bool) tea.Cmd {
		if !done && p.PendingReview() {
			said.Set(status.Info, Name(p)+"'s change still waits for review: enter on its line, or /subagents diff "+fmt.Sprint(p.Number()))
		}
		return nil
	}
	failed := func(err error) tea.Msg { return status.Said{Level: status.Error, Text: "review: " + err.Error()} }
	var across func() tea.Cmd
	if _, ok := a.cfg.Session.(review.Merger); ok {
		across = a.OpenMerge
	}
	return review.Open(r, p.ID(), a.cfg.Styles, closed, failed, across)
}

// OpenMerge previews the merge of every change waiting for review and
// opens the view across them over everything; once a merge is applied
// the status line says what went in and whether it was verified.
func (a *Area) OpenMerge() tea.Cmd {
	r, ok := a.cfg.Session.(review.Merger)
	if !ok {
		a.cfg.Status.Set(status.Error, "this session cannot merge changes")
		return nil
	}
	said := a.cfg.Status
	closed := func(applied *event.FanInApplied) tea.Cmd {
		if applied != nil {
			said.Set(status.Info, mergedNotice(*applied))
		}
		return nil
	}
	failed := func(err error) tea.Msg { return status.Said{Level: status.Error, Text: "merge: " + err.Error()} }
	return review.OpenAcross(r, a.cfg.Styles, closed, failed)
}

// mergedNotice says what a merge applied and how it was verified.
func mergedNotice(a event.FanInApplied) string {
	ids := make([]string, len(a.Applied))
	for i, id := range a.Applied {
		ids[i] = string(id)
	}
	text := "applied the merge of " + strings.Join(ids, ", ") + " to your tree"
	switch {
	case a.Verify != nil && a.Verify.Passed:
		return text + " (merged result verified ✓)"
	case a.Verify != nil:
		return text + " unverified (" + a.Verify.Mark() + ")"
	}
	return text + " unverified (no verify command)"
}
