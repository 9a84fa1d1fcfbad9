package child

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// DefaultVerifyTimeout bounds a verify run when [limits] verify_timeout_s
// is not set; MaxVerifyTimeout is the most any configuration gets.
const (
	DefaultVerifyTimeout = 5 * time.Minute
	MaxVerifyTimeout     = time.Hour
)

// maxVerifyCommands bounds how many commands one verify list may hold.
const maxVerifyCommands = 16

// commands is a task call's verify: one command or a list of them.
type commands []string

// UnmarshalJSON takes a string or an array of strings.
func (c *commands) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		*c = nil
		return nil
	}
	var one string
	if err := json.Unmarshal(data, &one); err == nil {
		*c = commands{one}
		return nil
	}
	var list []string
	if err := json.Unmarshal(data, &list); err != nil {
		return errors.New("verify must be a command or a list of commands")
	}
	*c = list
	return nil
}

// check trims the commands and refuses an empty or oversized list.
func (c *commands) check() error {
	if *c == nil {
		return nil
	}
	var out commands
	for _, cmd := range *c {
		if cmd = strings.TrimSpace(cmd); cmd != "" {
			out = append(out, cmd)
		}
	}
	switch {
	case len(out) == 0:
		return errors.New("verify is empty: give a command such as \"go test ./...\", or leave it out")
	case len(out) > maxVerifyCommands:
		return fmt.Errorf("verify may hold at most %d commands", maxVerifyCommands)
	}
	*c = out
	return nil
}

// verifyOf picks a child's verify commands: the task call's, else its
// agent file's, else [subagents] verify.
func (m *Manager) verifyOf(asked commands, typ agenttypes.Type) []string {
	switch {
	case len(asked) > 0:
		return asked
	case len(typ.Verify) > 0:
		return typ.Verify
	}
	return m.opts.Worktrees.Verify
}

// verifyTimeout is [limits] verify_timeout_s, defaulted and capped.
func (m *Manager) verifyTimeout() time.Duration {
	d := m.opts.Worktrees.VerifyTimeout
	if d <= 0 {
		d = DefaultVerifyTimeout
	}
	return min(d, MaxVerifyTimeout)
}

// Verifier runs verify commands in a folder under a sandbox policy,
// bounded by one timeout for them all.
type Verifier struct {
	Commands []string
	Timeout  time.Duration
	Limits   tools.Limits
	Sandbox  sandbox.Policy
}

// Run runs the commands in order in ws until one fails, the way
// run_command runs a command (blocklist, sandbox, every descendant
// killed), and says how they ended.
func (v Verifier) Run(ctx context.Context, ws *tools.Workspace) event.Verification {
	res := event.Verification{Command: strings.Join(v.Commands, " && "), Passed: true, Timeout: v.Timeout}
	deadline := time.Now().Add(v.Timeout)
	var out []string
	for _, cmd := range v.Commands {
		left := time.Until(deadline)
		if left <= 0 {
			res.Passed, res.TimedOut, res.Exit = false, true, -1
			break
		}
		got, err := tools.Check(ctx, ws, v.Limits, v.Sandbox, cmd, left)
		if err != nil {
			res.Passed, res.Error, res.Exit = false, err.Error(), -1
			out = append(out, "$ "+cmd+"\n"+err.Error())
			break
		}
		out = append(out, "$ "+cmd+"\n"+got.Output)
		if got.TimedOut || got.Exit != 0 {
			res.Passed, res.TimedOut, res.Exit = false, got.TimedOut, got.Exit
			res.Failing = countFailing(got.Output)
			break
		}
	}
	res.Output = strings.Join(out, "\n")
	return res
}

// countFailing counts the failing tests an output names: Go's top-level
// "--- FAIL:" lines and pytest's "FAILED " summary lines.
func countFailing(output string) int {
	n := 0
	for line := range strings.Lines(output) {
		if strings.HasPrefix(line, "--- FAIL: ") || strings.HasPrefix(line, "FAILED ") {
			n++
		}
	}
	return n
}

// verifyNote is what the parent model is told of a verification, with
// the failing output (bounded) so it can send the child back with it.
func verifyNote(what string, v event.Verification) string {
	if v.Passed {
		return fmt.Sprintf("%s passed its verification (%s).", what, v.Command)
	}
	return fmt.Sprintf("%s failed its verification (%s): %s. Output:\n%s", what, v.Command, strings.TrimPrefix(v.Mark(), "✗ "), clipStart(v.Output, 2000))
}

// clipStart keeps the last max characters of s, where a test run says
// what failed.
func clipStart(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return "…" + string(r[len(r)-max:])
}

// verifier is the child's verify run, nil when it has no commands.
func (c *Child) verifier() *Verifier {
	if len(c.spec.Verify) == 0 {
		return nil
	}
	return &Verifier{Commands: c.spec.Verify, Timeout: c.m.verifyTimeout(), Limits: c.spec.Toolbox.Limits, Sandbox: c.spec.Toolbox.Sandbox}
}
