package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
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
	a.emit(event.TurnStarted{Meta: a.stamp(), Prompt: "!" + command})
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
		a.addHistory(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: fmt.Sprintf(
			"[The person ran a command in the shell themselves (you did not run it); for your information:]\n$ %s\n%s", command, result)})
	}
	s.mu.Lock()
	s.busy = false
	s.turnCancel = nil
	s.mu.Unlock()
	a.emit(event.TurnEnded{Meta: a.stamp(), Status: status})
	s.wakeIfPending()
}

// shellCall runs the command as a run_command call of the person's,
// shown with ToolStarted and ToolFinished, and returns its bounded output.
func (s *Session) shellCall(ctx context.Context, a *Agent, command string) (string, error) {
	args, _ := json.Marshal(map[string]string{"command": command})
	id := s.ids.personCall()
	tool, have := a.toolSet().Get(rules.CommandTool)
	title := "$ " + command
	a.emit(event.ToolStarted{Meta: a.stamp(), CallID: id, Name: rules.CommandTool, Args: string(args), Title: title})
	finish := func(output, summary string, err error) (string, error) {
		ev := event.ToolFinished{Meta: a.stamp(), CallID: id, Name: rules.CommandTool, Output: output, Summary: summary}
		if err != nil {
			ev.IsError, ev.Output, ev.Summary = true, err.Error(), firstLine(err.Error())
		}
		a.emit(ev)
		return output, err
	}
	if !have {
		return finish("", "", errors.New("run_command is not among the main agent's tools"))
	}
	call := rules.CallOf(rules.CommandTool, args, s.cfg.Workspace)
	if verdict, rule := (rules.Set{Deny: s.perms.snapshot().Deny}).Decide(call); verdict == rules.Denied {
		return finish("", "", fmt.Errorf("denied by the rule deny %s%s", rule, unclear(call)))
	}
	res, err := tool.Run(ctx, args)
	if err != nil {
		return finish("", "", err)
	}
	return finish(truncateChars(res.Output, s.cfg.Limits.ToolOutputChars), res.Summary, nil)
}
