package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

func init() {
	register("run_command", func(b build) (Tool, bool) { return runCommand{ws: b.ws, lim: b.lim, box: b.box}, true })
}

// maxCommandTimeout is the longest timeout a call may ask for.
const maxCommandTimeout = 10 * time.Minute

// runCommand is the run_command tool: a shell command in the workspace,
// run inside the agent's sandbox.
type runCommand struct {
	ws  *Workspace
	lim Limits
	box sandbox.Policy
}

// RunCommand is run_command under a given sandbox policy: each agent gets
// its own, since sub-agents differ from the main agent in network.
func RunCommand(ws *Workspace, lim Limits, box sandbox.Policy) Tool {
	return runCommand{ws: ws, lim: lim.withDefaults(), box: box}
}

type runCommandArgs struct {
	Command  string  `json:"command"`
	TimeoutS float64 `json:"timeout_s"`
}

func (runCommand) Name() string   { return "run_command" }
func (runCommand) ReadOnly() bool { return false }

func (runCommand) Description() string {
	return "Run a shell command (bash -c) in the workspace root and return its combined stdout and stderr " +
		"and exit status. Stdin is empty and there is no terminal, so interactive commands fail; long output " +
		"keeps its start and end. Commands run in a sandbox: writes outside the workspace, the temp folder and " +
		"build caches fail, credentials are unreadable, and background processes are killed when the command " +
		"ends. A few destructive commands are always refused."
}

func (runCommand) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"command":{"type":"string","description":"the command line, e.g. go test ./..."},` +
		`"timeout_s":{"type":"number","minimum":1,"maximum":600,"description":"timeout in seconds (default 120)"}},` +
		`"required":["command"]}`)
}

func (t runCommand) Title(args json.RawMessage) string {
	var a runCommandArgs
	if json.Unmarshal(args, &a) != nil {
		return t.Name()
	}
	return title(t.Name(), a.Command)
}

// Preview shows the command line as it will run.
func (t runCommand) Preview(_ context.Context, args json.RawMessage) (string, error) {
	a, timeout, err := t.parse(args)
	if err != nil {
		return "", err
	}
	where := ""
	if t.ws.editor.Terminal != nil {
		where = ", in the editor's terminal"
	}
	return fmt.Sprintf("$ %s\n(in %s, timeout %s%s)\nsandbox: %s", a.Command, t.ws.Root(), timeout, where, t.box.Describe()), nil
}

// Run executes the command in the agent's sandbox, whose supervisor kills
// every process the command started when it ends, times out or is
// cancelled, and reports a non-zero exit or a timeout in the output
// rather than as an error: both are information the model needs, not
// mistakes in its call.
func (t runCommand) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	a, timeout, err := t.parse(args)
	if err != nil {
		return Result{}, err
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out := newCapture(t.lim.OutputChars)
	box := t.box
	guard := box.Mode != sandbox.Off && box.Mode != "" && sandbox.Available()
	if guard {
		box = enterGuard(t.ws.Root(), box)
	}
	err = t.execute(runCtx, box, a.Command, out)
	restored := ""
	if guard {
		restored = leaveGuard(t.ws.Root())
	}
	if errors.Is(err, sandbox.ErrNotInstalled) {
		return Result{}, fmt.Errorf("run_command: %w", err)
	}
	if ctx.Err() != nil {
		return Result{}, fmt.Errorf("run_command: %w", ctx.Err())
	}
	status, summary, err := outcome(err, runCtx.Err() != nil, timeout)
	if err != nil {
		return Result{}, err
	}
	text := strings.TrimRight(out.String(), "\n")
	switch {
	case text == "" && status == "":
		text = "(no output)"
	case text == "":
		text = status
	case status != "":
		text += "\n" + status
	}
	if restored != "" {
		text += "\n" + restored
	}
	return Result{Output: text, Summary: summary}, nil
}

// execute runs the command line in the agent's sandbox: in the editor's
// terminal when baton serves an editor that offers one, else under
// baton's own supervisor.
func (t runCommand) execute(ctx context.Context, box sandbox.Policy, script string, out *capture) error {
	term := t.ws.editor.Terminal
	if term == nil {
		return sandbox.Run(ctx, box, script, t.ws.Root(), WithoutSecrets(os.Environ()), out)
	}
	path, args, err := sandbox.TerminalCommand(box, script, hiddenEnv)
	if err != nil {
		return err
	}
	res, err := term.Run(ctx, TerminalCommand{Path: path, Args: args, Dir: t.ws.Root(), OutputBytes: t.lim.OutputChars})
	if err != nil {
		return err
	}
	if res.Truncated {
		fmt.Fprintf(out, "[the terminal kept only the end of the output]\n")
	}
	_, _ = out.Write([]byte(res.Output))
	return exitOf(res)
}

// outcome turns Wait's error into the status line appended to the output
// and the summary people see; only a failure to run at all is an error.
func outcome(waitErr error, timedOut bool, timeout time.Duration) (status, summary string, err error) {
	var exitErr exitCoder
	switch {
	case timedOut:
		return fmt.Sprintf("[timed out after %s; the command and its children were killed]", timeout),
			"timed out after " + timeout.String(), nil
	case errors.As(waitErr, &exitErr) && exitErr.ExitCode() >= 0:
		return fmt.Sprintf("[exit status %d]", exitErr.ExitCode()), fmt.Sprintf("exit %d", exitErr.ExitCode()), nil
	case errors.As(waitErr, &exitErr):
		return "[" + exitErr.Error() + "]", exitErr.Error(), nil
	case waitErr != nil && !errors.Is(waitErr, exec.ErrWaitDelay):
		return "", "", fmt.Errorf("run_command: %w", waitErr)
	}
	return "", "exit 0", nil
}

// exitCoder is a command that did not exit with status 0: the sandbox's
// ExitError, or a terminal's.
type exitCoder interface {
	error
	ExitCode() int
}

// parse decodes the arguments, checks the command against the safety
// rules and picks the timeout.
func (t runCommand) parse(args json.RawMessage) (runCommandArgs, time.Duration, error) {
	var a runCommandArgs
	if err := decodeArgs(t.Name(), args, &a, "command"); err != nil {
		return a, 0, err
	}
	if strings.TrimSpace(a.Command) == "" {
		return a, 0, errors.New("run_command: command is empty")
	}
	if err := CheckCommand(a.Command); err != nil {
		return a, 0, err
	}
	timeout := t.lim.CommandTimeout
	if a.TimeoutS != 0 {
		timeout = time.Duration(a.TimeoutS * float64(time.Second))
		if timeout < time.Second || timeout > maxCommandTimeout {
			return a, 0, fmt.Errorf("run_command: timeout_s must be between 1 and %d", int(maxCommandTimeout.Seconds()))
		}
	}
	return a, timeout, nil
}

// hiddenEnv are baton's own secrets: no command the model runs and no
// MCP server ever sees them, so neither can hand the key on.
var hiddenEnv = []string{"OPENAI_API_KEY"}

// WithoutSecrets is environ less baton's own secrets: the environment of
// every process baton starts for a model or a server.
func WithoutSecrets(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(hiddenEnv, name) {
			out = append(out, kv)
		}
	}
	return out
}
