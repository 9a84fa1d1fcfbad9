package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/ui/overlay/sessionpick"
	"github.com/seed-e4e525a6/baton/ui/status"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// /resume and /sessions switch the running session to another of this
// folder's, without quitting, as baton --resume ID would: the picker
// lists them (or /resume ID names one), cmd opens it and closes the one
// it replaces, and the UI starts over on it, its conversation replayed.
// The prompt history, the theme and the size carry over.

// sessionsMsg carries this folder's sessions for the picker.
type sessionsMsg struct{ list []transcript.Summary }

// resumedMsg carries the session switched to, and how to close the one
// left.
type resumedMsg struct {
	s        Session
	closeOld func()
}

// cmdResume is /resume [ID] and /sessions: the picker, or the session
// named.
func (m *Model) cmdResume(arg string) tea.Cmd {
	if m.opts.Sessions == nil || m.opts.Resume == nil {
		m.status.Set(status.Error, "resume: sessions are not recorded here (no state folder)")
		return nil
	}
	if why := m.cannotSwitch(); why != "" {
		m.status.Set(status.Error, "resume: "+why)
		return nil
	}
	if arg != "" {
		return m.resumeSession(arg)
	}
	list := m.opts.Sessions
	return func() tea.Msg {
		sessions, err := list()
		if err != nil {
			return callFailedMsg{err: fmt.Errorf("resume: %w", err)}
		}
		return sessionsMsg{list: sessions}
	}
}

// cannotSwitch says why the session cannot be left now: what runs in it
// would be stopped. "" when it can.
func (m *Model) cannotSwitch() string {
	switch {
	case m.busy:
		return "a turn is running; esc interrupts it first"
	case m.agents.running():
		return "sub-agents are running; wait for them or stop them first"
	case m.agents.inBackground() > 0:
		return "background sub-agents are running; leaving would stop them"
	}
	return ""
}

// sessionsListed opens the picker, or says there is nothing to switch
// to.
func (m *Model) sessionsListed(msg sessionsMsg) {
	current := m.session.ID()
	others := 0
	for _, s := range msg.list {
		if s.ID != current {
			others++
		}
	}
	if others == 0 {
		m.status.Set(status.Info, "resume: this folder has no other session")
		return
	}
	m.openPicker(sessionpick.New(msg.list, current, m.now(), m.styles), (*Model).resumeSession)
}

// resumeSession asks cmd to open session id in place of this one.
func (m *Model) resumeSession(id string) tea.Cmd {
	id = strings.TrimSpace(id)
	switch {
	case strings.ContainsAny(id, " \t"):
		m.status.Set(status.Error, fmt.Sprintf("resume: %q is not a session id; /resume lists them", termtext.Clean(id)))
		return nil
	case id == m.session.ID():
		m.status.Set(status.Info, "resume: that is the session you are in")
		return nil
	}
	if why := m.cannotSwitch(); why != "" {
		m.status.Set(status.Error, "resume: "+why)
		return nil
	}
	m.status.Set(status.Info, "resuming "+termtext.Clean(id)+"…")
	resume := m.opts.Resume
	return func() tea.Msg {
		s, closeOld, err := resume(id)
		if err != nil {
			return callFailedMsg{err: fmt.Errorf("resume: %w", err)}
		}
		return resumedMsg{s: s, closeOld: closeOld}
	}
}

// resumed starts the UI over on the session switched to: its
// conversation replayed as at start, with this run's prompt history,
// theme and size. The session left is closed only now: the wait still on
// its channel then brings an end the new Model knows is not its own.
func (m Model) resumed(msg resumedMsg) (tea.Model, tea.Cmd) {
	opts := m.opts
	opts.Notices = nil // said once, at start
	next := New(msg.s, opts)
	next.now = m.now
	next.applyTheme(m.styles.Palette)
	next.seedHistory(m.input.History(), msg.s.History())
	next.resize(m.width, m.height)
	next.status.Set(status.Info, "resumed session "+termtext.Clean(msg.s.ID()))
	closeOld := msg.closeOld
	return next, tea.Batch(next.Init(), func() tea.Msg {
		if closeOld != nil {
			closeOld()
		}
		return nil
	})
}
