package tools

import (
	"context"
	"fmt"
	"strconv"
)

// Editor is the program baton serves when it runs inside an editor (over
// the Agent Client Protocol), where the person's open buffers and
// terminals live. A workspace served through an editor reads and writes
// the person's files through Files, so an unsaved edit is seen and a
// change lands in the open buffer, and runs commands in the editor's
// terminal through Terminal, still confined by baton's sandbox. Either
// may be nil: then the disk, or baton's own runner, does the job.
//
// Every path is checked by the workspace before the editor sees it: the
// editor is asked only about files inside the workspace, never through a
// symlink out or into a git directory.
type Editor struct {
	Files    EditorFiles
	Terminal EditorTerminal
}

// EditorFiles reads and writes text files as the editor has them. Paths
// are absolute.
type EditorFiles interface {
	// ReadTextFile returns the file's text, unsaved changes included.
	ReadTextFile(ctx context.Context, path string) (string, error)
	// WriteTextFile replaces the file's text, creating the file.
	WriteTextFile(ctx context.Context, path, content string) error
}

// EditorTerminal runs a program in a terminal of the editor, where the
// person watches it, and returns once it ended, was killed because ctx
// ended, or could not start.
type EditorTerminal interface {
	Run(ctx context.Context, cmd TerminalCommand) (TerminalResult, error)
}

// TerminalCommand is what an editor's terminal runs: baton's sandbox
// stage, which confines the shell running the model's command line.
type TerminalCommand struct {
	Path string
	Args []string
	// Dir is the working folder, absolute.
	Dir string
	// OutputBytes is how much output the editor keeps (its end).
	OutputBytes int
}

// TerminalResult is how a terminal's command ended. Output is what the
// editor kept; Truncated says it dropped the start.
type TerminalResult struct {
	Output    string
	Truncated bool
	// ExitCode is the exit status, or -1 when Signal ended the command.
	ExitCode int
	Signal   string
}

// terminalExit is a terminal command that did not exit with status 0,
// read by run_command as the sandbox's exit errors are.
type terminalExit struct {
	code   int
	signal string
}

// Error reads like exec's: "exit status 3", "signal: SIGTERM".
func (e *terminalExit) Error() string {
	if e.code < 0 {
		return "signal: " + e.signal
	}
	return "exit status " + strconv.Itoa(e.code)
}

// ExitCode is the exit status, or -1 when a signal ended the command.
func (e *terminalExit) ExitCode() int { return e.code }

// exitOf turns a terminal result into what run_command reads: nil for
// status 0.
func exitOf(r TerminalResult) error {
	switch {
	case r.ExitCode == 0 && r.Signal == "":
		return nil
	case r.Signal != "":
		return &terminalExit{code: -1, signal: r.Signal}
	case r.ExitCode < 0:
		return fmt.Errorf("the terminal reported no exit status")
	}
	return &terminalExit{code: r.ExitCode}
}

// NewEditorWorkspace is NewWorkspace for a workspace the editor e holds:
// its tools read, write and run through e (see Editor).
func NewEditorWorkspace(root string, e Editor) (*Workspace, error) {
	w, err := NewWorkspace(root)
	if err != nil {
		return nil, err
	}
	w.editor = e
	return w, nil
}
