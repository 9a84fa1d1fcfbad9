package command

import (
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/agents"
	"github.com/seed-e4e525a6/baton/ui/convo"
	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/pane"
	"github.com/seed-e4e525a6/baton/ui/status"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// subagentsCommand is /subagents.
func subagentsCommand() Command {
	return Command{Name: "subagents", Args: "list|stop|log|info|send|diff|merge|resume|retry",
		Desc: "list, stop, read, message, resume or retry sub-agents; review or merge worktree changes", Run: subagents, Complete: subagentCompletions}
}

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
	{"merge", "", "merge every change waiting for review, verify the result and apply it", false},
	{"resume", "<id|#>", "continue one that was interrupted, from where it stopped", false},
	{"retry", "<id|#>", "start its task afresh, with the same type, prompt and model", false},
}

// subagents runs "/subagents <command> …".
func subagents(env *Env, arg string) tea.Cmd {
	sub, rest, _ := strings.Cut(arg, " ")
	rest = strings.TrimSpace(rest)
	switch sub {
	case "", "list":
		return list(env)
	case "stop":
		return stop(env, rest)
	case "log":
		return childLog(env, rest)
	case "info":
		return info(env, rest)
	case "send":
		return send(env, rest)
	case "diff":
		if p, ok := child(env, "diff", rest); ok {
			return env.Agents.OpenReview(p)
		}
		return nil
	case "merge":
		return env.Agents.OpenMerge()
	case "resume", "retry":
		return again(env, sub, rest)
	}
	env.Status.Set(status.Error, fmt.Sprintf("unknown command /subagents %s; use list, stop, log, info, send, diff, merge, resume or retry", termtext.Clean(sub)))
	return nil
}

// child resolves the one child a command names, saying what is wrong
// in the status line when it cannot.
func child(env *Env, cmd, ref string) (*pane.Pane, bool) {
	if ref == "" {
		env.Status.Set(status.Error, fmt.Sprintf("/subagents %s: name a sub-agent by id or number; /subagents list shows them", cmd))
		return nil, false
	}
	p, err := env.Agents.Find(ref)
	if err != nil {
		env.Status.Set(status.Error, fmt.Sprintf("/subagents %s: %v", cmd, err))
		return nil, false
	}
	return p, true
}

// list writes every child of the session as a table into the
// conversation.
func list(env *Env) tea.Cmd {
	all := env.Agents.All()
	if len(all) == 0 {
		env.Status.Set(status.Info, "no sub-agent has run in this session")
		return nil
	}
	return Do(Result{Block: tableBlock{Subagents(all)}})
}

// tableBlock is a table in the conversation, laid out at the width it is
// drawn at.
type tableBlock struct{ table Table }

// Lines lays the table out at width.
func (b tableBlock) Lines(styles *themes.Styles, width int, _ func(convo.Entry, int) []string) []string {
	return b.table.Lines(styles, width)
}

// info writes everything known about one child into the conversation.
func info(env *Env, rest string) tea.Cmd {
	if len(strings.Fields(rest)) > 1 {
		env.Status.Set(status.Error, "/subagents info takes one id or number")
		return nil
	}
	p, ok := child(env, "info", rest)
	if !ok {
		return nil
	}
	return Do(Result{Note: ChildInfo(p.Info())})
}

// stop stops one child, or every running one for "all".
func stop(env *Env, rest string) tea.Cmd {
	if len(strings.Fields(rest)) > 1 {
		env.Status.Set(status.Error, "/subagents stop takes one id, number or all")
		return nil
	}
	if rest == "all" {
		if !env.Agents.Running() {
			env.Status.Set(status.Error, "/subagents stop: no sub-agent is running")
			return nil
		}
		return env.Agents.StopAll()
	}
	p, ok := child(env, "stop", rest)
	if !ok {
		return nil
	}
	return env.Agents.Stop(p)
}

// send sends the rest of the line into a running child, or asks a
// finished one more.
func send(env *Env, rest string) tea.Cmd {
	ref, text, _ := strings.Cut(rest, " ")
	p, ok := child(env, "send", ref)
	if !ok {
		return nil
	}
	if text = strings.TrimSpace(text); text == "" {
		env.Status.Set(status.Error, "/subagents send: the message is missing: /subagents send "+termtext.Clean(ref)+" <message>")
		return nil
	}
	if !p.Live() {
		return env.Agents.Continue(p, text)
	}
	return env.Agents.Send(p.ID(), text)
}

// again resumes or retries one child that ended.
func again(env *Env, sub, rest string) tea.Cmd {
	if len(strings.Fields(rest)) > 1 {
		env.Status.Set(status.Error, "/subagents "+sub+" takes one id or number")
		return nil
	}
	p, ok := child(env, sub, rest)
	switch {
	case !ok:
		return nil
	case sub == "resume":
		return env.Agents.Resume(p)
	}
	return env.Agents.Retry(p)
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
func refs(a *agents.Area) []childRef {
	all := a.All()
	out := make([]childRef, 0, len(all))
	for _, p := range all {
		if p.Live() {
			out = append(out, refOf(p))
		}
	}
	for i := len(all) - 1; i >= 0; i-- {
		if p := all[i]; !p.Live() {
			out = append(out, refOf(p))
		}
	}
	return out
}

// refOf describes one child for completion.
func refOf(p *pane.Pane) childRef {
	desc := fmt.Sprintf("%s [%s] %s · %s", p.ID(), p.Meta().AgentType, p.Meta().Description, p.State())
	return childRef{id: p.ID(), num: strconv.Itoa(p.Number()), desc: termtext.Clean(desc), live: p.Live()}
}

// subagentCompletions completes what follows "/subagents ": the command,
// then the child it acts on.
func subagentCompletions(env *Env, rest string) []input.Candidate {
	children := refs(env.Agents)
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
