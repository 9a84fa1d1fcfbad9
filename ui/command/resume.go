package command

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/overlay/sessionpick"
	"github.com/seed-e4e525a6/baton/ui/status"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// /resume and /sessions switch the running session to another of this
// folder's, without quitting, as baton --resume ID would: the picker
// lists them (or /resume ID names one), and the root starts over on the
// session cmd opens (Options.Resume).

// resumeCommand is /resume.
func resumeCommand() Command {
	return Command{Name: "resume", Args: "[ID]", Desc: "switch to another session of this folder (alone: pick from the list)", Run: resumeSession}
}

// sessionsCommand is /sessions.
func sessionsCommand() Command {
	return Command{Name: "sessions", Desc: "list this folder's sessions and switch to one", Run: resumeSession}
}

// resumeSession is /resume [ID] and /sessions: the picker, or the
// session named.
func resumeSession(env *Env, arg string) tea.Cmd {
	o := env.Options
	if o.Sessions == nil || o.Resume == nil {
		env.Status.Set(status.Error, "resume: sessions are not recorded here (no state folder)")
		return nil
	}
	if why := cannotSwitch(env); why != "" {
		env.Status.Set(status.Error, "resume: "+why)
		return nil
	}
	if arg != "" {
		return switchTo(env, arg)
	}
	list, current, styles, resume := o.Sessions, o.SessionID, env.Styles, o.Resume
	return func() tea.Msg {
		sessions, err := list()
		if err != nil {
			return status.Said{Level: status.Error, Text: termtext.Clean(fmt.Sprintf("resume: %v", err))}
		}
		others := 0
		for _, s := range sessions {
			if s.ID != current {
				others++
			}
		}
		if others == 0 {
			return status.Said{Level: status.Info, Text: "resume: this folder has no other session"}
		}
		return overlay.Open{Layer: sessionpick.New(sessions, current, time.Now(), styles, resume)}
	}
}

// cannotSwitch says why the session cannot be left now: what runs in it
// would be stopped. "" when it can.
func cannotSwitch(env *Env) string {
	switch {
	case env.Busy:
		return "a turn is running; esc interrupts it first"
	case env.Agents.Running():
		return "sub-agents are running; wait for them or stop them first"
	case env.Agents.InBackground() > 0:
		return "background sub-agents are running; leaving would stop them"
	}
	return ""
}

// switchTo asks for session id in place of this one.
func switchTo(env *Env, id string) tea.Cmd {
	id = strings.TrimSpace(id)
	switch {
	case strings.ContainsAny(id, " \t"):
		env.Status.Set(status.Error, fmt.Sprintf("resume: %q is not a session id; /resume lists them", termtext.Clean(id)))
		return nil
	case id == env.Options.SessionID:
		env.Status.Set(status.Info, "resume: that is the session you are in")
		return nil
	}
	env.Status.Set(status.Info, "resuming "+termtext.Clean(id)+"…")
	return env.Options.Resume(id)
}
