package acp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/seed-e4e525a6/baton/engine/tools"
)

// cleanupTimeout bounds the calls that end a terminal once its command's
// context has ended: the client may be slow or gone.
const cleanupTimeout = 10 * time.Second

// errNoTerminal is a terminal the client made without an id.
var errNoTerminal = errors.New("the editor made a terminal without an id")

// clientFiles reads and writes files through the client's buffers.
type clientFiles struct{ ss *session }

// ReadTextFile implements tools.EditorFiles.
func (f clientFiles) ReadTextFile(ctx context.Context, path string) (string, error) {
	var resp readTextFileResponse
	if err := f.ss.srv.c.Call(ctx, "fs/read_text_file", readTextFileRequest{SessionID: f.ss.id, Path: path}, &resp); err != nil {
		return "", fmt.Errorf("the editor: %w", err)
	}
	return resp.Content, nil
}

// WriteTextFile implements tools.EditorFiles.
func (f clientFiles) WriteTextFile(ctx context.Context, path, content string) error {
	if err := f.ss.srv.c.Call(ctx, "fs/write_text_file", writeTextFileRequest{SessionID: f.ss.id, Path: path, Content: content}, nil); err != nil {
		return fmt.Errorf("the editor: %w", err)
	}
	return nil
}

// clientTerminal runs commands in the client's terminals, each shown
// under the call it runs for.
type clientTerminal struct{ ss *session }

// Run implements tools.EditorTerminal: it creates the terminal, shows it,
// waits for the command (killing it when ctx ends first), reads what it
// printed and releases it.
func (t clientTerminal) Run(ctx context.Context, cmd tools.TerminalCommand) (tools.TerminalResult, error) {
	c, id := t.ss.srv.c, t.ss.id
	var created createTerminalResponse
	err := c.Call(ctx, "terminal/create", createTerminalRequest{SessionID: id, Command: cmd.Path, Args: cmd.Args, Cwd: cmd.Dir, OutputByteLimit: cmd.OutputBytes}, &created)
	if err != nil {
		return tools.TerminalResult{}, fmt.Errorf("the editor's terminal: %w", err)
	}
	if created.TerminalID == "" {
		return tools.TerminalResult{}, errNoTerminal
	}
	ref := terminalRef{SessionID: id, TerminalID: created.TerminalID}
	cleanup := func(method string, result any) error {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		return c.Call(cctx, method, ref, result)
	}
	defer func() { _ = cleanup("terminal/release", nil) }()
	if call, ok := tools.CallRefOf(ctx); ok {
		t.ss.attachTerminal(ctx, call, created.TerminalID)
	}
	var exit exitStatus
	if err := c.Call(ctx, "terminal/wait_for_exit", ref, &exit); err != nil {
		if ctx.Err() == nil {
			return tools.TerminalResult{}, fmt.Errorf("the editor's terminal: %w", err)
		}
		_ = cleanup("terminal/kill", nil)
	}
	var out terminalOutputResponse
	if err := cleanup("terminal/output", &out); err != nil {
		return tools.TerminalResult{}, fmt.Errorf("the editor's terminal: %w", err)
	}
	if out.ExitStatus != nil && exit.ExitCode == nil && exit.Signal == nil {
		exit = *out.ExitStatus
	}
	res := tools.TerminalResult{Output: out.Output, Truncated: out.Truncated, ExitCode: -1}
	if exit.ExitCode != nil {
		res.ExitCode = *exit.ExitCode
	}
	if exit.Signal != nil && *exit.Signal != "" {
		res.Signal = *exit.Signal
	}
	return res, nil
}
