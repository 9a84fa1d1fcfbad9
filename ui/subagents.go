package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/status"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/ui/pane"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// subcommand is one /subagents command: its arguments for help, and
// whether it acts on running children only.
type subcommand struct {
	name, args, desc string
	liveOnly         bool
}

// subcommands are the /subagents commands, in the order completion lists
// them.
var subcommands = []subcommand{
	{"list", "", "every sub-agent of this session", false},
	{"stop", "<id|#|all>", "stop a running sub-agent, or all of them", true},
	{"log", "<id|#> [limit] [tools]", "its last messages, with tool calls if asked", false},
	{"info", "<id|#>", "status, times, model, limits, usage, transcript", false},
	{"send", "<id|#> <message>", "a message into a running sub-agent, or a follow-up to a finished one", false},
	{"diff", "<id|#>", "review a worktree sub-agent's change and apply it", false},
}

// cmdSubagents runs "/subagents <command> …".
func (m *Model) cmdSubagents(arg string) tea.Cmd {
	sub, rest, _ := strings.Cut(arg, " ")
	rest = strings.TrimSpace(rest)
	switch sub {
	case "", "list":
		m.subagentsList()
		return nil
	case "stop":
		return m.subagentsStop(rest)
	case "log":
		return m.subagentsLog(rest)
	case "info":
		m.subagentsInfo(rest)
		return nil
	case "send":
		return m.subagentsSend(rest)
	case "diff":
		if p, ok := m.child("diff", rest); ok {
			return m.openReview(p)
		}
		return nil
	}
	m.status.Set(status.Error, fmt.Sprintf("unknown command /subagents %s; use list, stop, log, info, send or diff", termtext.Clean(sub)))
	return nil
}

// child resolves the one child a command names, saying what is wrong
// in the status line when it cannot.
func (m *Model) child(cmd, ref string) (*pane.Pane, bool) {
	if ref == "" {
		m.status.Set(status.Error, fmt.Sprintf("/subagents %s: name a sub-agent by id or number; /subagents list shows them", cmd))
		return nil, false
	}
	p, err := m.agents.find(ref)
	if err != nil {
		m.status.Set(status.Error, fmt.Sprintf("/subagents %s: %v", cmd, err))
		return nil, false
	}
	return p, true
}

// subagentsStop stops one child, or every running one for "all".
func (m *Model) subagentsStop(rest string) tea.Cmd {
	if len(strings.Fields(rest)) > 1 {
		m.status.Set(status.Error, "/subagents stop takes one id, number or all")
		return nil
	}
	if rest == "all" {
		if !m.agents.running() {
			m.status.Set(status.Error, "/subagents stop: no sub-agent is running")
			return nil
		}
		m.status.SetTransient(status.Warning, "stopping every sub-agent…", status.Child, status.AllChildren)
		return stopCmd(m.session, "all")
	}
	p, ok := m.child("stop", rest)
	if !ok {
		return nil
	}
	return m.stopAgent(p)
}

// subagentsSend sends the rest of the line into a running child.
func (m *Model) subagentsSend(rest string) tea.Cmd {
	ref, text, _ := strings.Cut(rest, " ")
	p, ok := m.child("send", ref)
	if !ok {
		return nil
	}
	if text = strings.TrimSpace(text); text == "" {
		m.status.Set(status.Error, "/subagents send: the message is missing: /subagents send "+termtext.Clean(ref)+" <message>")
		return nil
	}
	if p.State().Finished() {
		return m.continueAgent(p, text)
	}
	return m.sendToAgent(p.ID(), text)
}

// childRef is what completion offers for a child: its number, which
// names it for the whole session.
type childRef struct {
	id   event.AgentID
	num  string
	desc string
	live bool
}

// ref is what the command line gets for the child.
func (c childRef) ref() string { return c.num }

// refs lists the children for completion by number: the live ones
// first, in order, then the finished ones, newest first.
func (a *agents) refs() []childRef {
	out := make([]childRef, 0, len(a.all))
	for _, p := range a.all {
		if !p.State().Finished() {
			out = append(out, a.refOf(p))
		}
	}
	for i := len(a.all) - 1; i >= 0; i-- {
		if p := a.all[i]; p.State().Finished() {
			out = append(out, a.refOf(p))
		}
	}
	return out
}

// refOf describes one child for completion.
func (a *agents) refOf(p *pane.Pane) childRef {
	desc := fmt.Sprintf("%s [%s] %s · %s", p.ID(), p.Meta().AgentType, p.Meta().Description, p.State())
	return childRef{id: p.ID(), num: strconv.Itoa(p.Number()), desc: termtext.Clean(desc), live: !p.State().Finished()}
}

// subagentCompletions completes what follows "/subagents ": the command,
// then the child it acts on.
func subagentCompletions(rest string, children []childRef) []input.Candidate {
	name, ref, spaced := strings.Cut(rest, " ")
	var out []input.Candidate
	if !spaced {
		for _, c := range subcommands {
			if strings.HasPrefix(c.name, name) {
				text := "/subagents " + c.name
				if c.args != "" {
					text += " "
				}
				out = append(out, input.Candidate{Label: strings.TrimSpace(c.name + " " + c.args), Text: text, Desc: c.desc, Complete: c.args == ""})
			}
		}
		return out
	}
	var sub subcommand
	for _, c := range subcommands {
		if c.name == name && c.args != "" {
			sub = c
		}
	}
	if sub.name == "" || strings.Contains(ref, " ") {
		return nil
	}
	if sub.name == "stop" && strings.HasPrefix("all", ref) {
		out = append(out, input.Candidate{Label: "all", Text: "/subagents stop all", Desc: "every running sub-agent", Complete: true})
	}
	for _, c := range children {
		matches := strings.HasPrefix(c.ref(), strings.TrimPrefix(ref, "#")) || strings.HasPrefix(string(c.id), ref)
		if (c.live || !sub.liveOnly) && matches {
			text := "/subagents " + sub.name + " " + c.ref()
			complete := sub.name != "send"
			if !complete {
				text += " "
			}
			out = append(out, input.Candidate{Label: c.ref(), Text: text, Desc: c.desc, Complete: complete})
		}
	}
	return out
}
