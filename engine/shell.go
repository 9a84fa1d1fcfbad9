package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/rules"
)

// RunShell runs a command the person typed (!command in the TUI, as in
// Claude Code) through the main agent's run_command: the same sandbox,
// the same blocklist, and the deny rules; no card asks, since the person
// typed it. It is the session's busy job until it ends, like a turn (esc
// interrupts it), and is reported like one: TurnStarted with "!command",
// the call, TurnEnded. The command and its output join the main agent's
// history, so the model sees them with the next prompt, and the
// transcript, so a resumed session shows them.
func (s *Session) RunShell(command string) error {
	command = strings.TrimSpace(command)
	if command == "" {
		return errors.New("run: the command after ! is empty")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing:
		return ErrClosed
	case s.busy:
		return ErrBusy
	}
	s.startBusy(func(ctx context.Context) { s.runShell(ctx, command) })
	return nil
}

// runShell runs one command of the person's and reports it.
func (s *Session) runShell(ctx context.Context, command string) {
	a := s.main
	a.Emit(event.TurnStarted{Meta: a.Stamp(), Prompt: "!" + command})
	output, err := s.shellCall(ctx, a, command)
	status := event.StatusCompleted
	if ctx.Err() != nil {
		status = event.StatusInterrupted
	}
	if err == nil || ctx.Err() == nil {
		result := output
		if err != nil {
			result = "not run: " + err.Error()
		}
		a.Append(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: fmt.Sprintf(
			"[The person ran a command in the shell themselves (you did not run it); for your information:]\n$ %s\n%s", command, result)})
	}
	s.mu.Lock()
	s.busy = false
	s.turnCancel = nil
	s.mu.Unlock()
	a.Emit(event.TurnEnded{Meta: a.Stamp(), Status: status})
	s.wakeIfPending()
}

// shellCall runs the command as a run_command call of the person's,
// shown with ToolStarted and ToolFinished, and returns its bounded output.
func (s *Session) shellCall(ctx context.Context, a *agent.Agent, command string) (string, error) {
	args, _ := json.Marshal(map[string]string{"command": command})
	id := s.ids.personCall()
	tool, have := a.Tool(rules.CommandTool)
	title := "$ " + command
	a.Emit(event.ToolStarted{Meta: a.Stamp(), CallID: id, Name: rules.CommandTool, Args: string(args), Title: title})
	finish := func(output, summary string, err error) (string, error) {
		ev := event.ToolFinished{Meta: a.Stamp(), CallID: id, Name: rules.CommandTool, Output: output, Summary: summary}
		if err != nil {
			ev.IsError, ev.Output, ev.Summary = true, err.Error(), firstLine(err.Error())
		}
		a.Emit(ev)
		return output, err
	}
	if !have {
		return finish("", "", errors.New("run_command is not among the main agent's tools"))
	}
	call := rules.CallOf(rules.CommandTool, args, s.cfg.Workspace)
	if rule, denied := s.perms.DenyRule(call); denied {
		return finish("", "", fmt.Errorf("denied by the rule deny %s%s", rule, permission.Unclear(call)))
	}
	res, err := tool.Run(ctx, args)
	if err != nil {
		return finish("", "", err)
	}
	return finish(agent.Truncate(res.Output, s.cfg.Limits.ToolOutputChars), res.Summary, nil)
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
