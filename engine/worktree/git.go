// Package worktree gives a sub-agent that writes a git worktree of its
// own, started from the person's current state (uncommitted and untracked
// files included) without touching their working tree, index or stash,
// and merges its change back file by file or hunk by hunk with a
// three-way merge against that starting snapshot.
//
// Every git command runs through one runner: bounded in time and output,
// with the repository's hooks, fsmonitor, filter drivers, textconv and
// external diff drivers switched off, since the repository is untrusted
// input. Commands on a child's worktree name the git directory git made
// for it, never one the worktree's own `.git` points at.
package worktree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// gitTimeout bounds one git command; a snapshot of a large repository
// hashes every changed file, so it gets minutes, not seconds.
const gitTimeout = 3 * time.Minute

// maxGitOutput bounds what one git command may print; a diff larger than
// this is refused rather than held in memory.
const maxGitOutput = 64 << 20

// safeConfig keeps a repository's own configuration from running code
// baton did not intend: no hooks, no fsmonitor daemon, no pager, paths
// printed as they are.
var safeConfig = []string{
	"-c", "core.hooksPath=/dev/null",
	"-c", "core.fsmonitor=false",
	"-c", "core.pager=cat",
	"-c", "core.quotePath=false",
	"-c", "commit.gpgSign=false",
	"-c", "diff.external=",
	"-c", "submodule.recurse=false",
}

// gitProgram is the git found on $PATH when baton starts, before any
// command could leave a `git` in a folder on $PATH that commands may
// write (a workspace's bin/): baton's git calls during a command must
// not run it.
var gitProgram = func() string {
	if p, err := exec.LookPath("git"); err == nil {
		return p
	}
	return "git"
}()

// errTooLarge says a git command printed more than maxGitOutput.
var errTooLarge = errors.New("git output exceeds 64 MiB")

// git runs one git command in dir with extra environment entries and
// returns its standard output.
func git(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	out, err := gitBytes(ctx, dir, env, nil, args...)
	return string(out), err
}

// gitBytes is git with standard input and byte output.
func gitBytes(ctx context.Context, dir string, env []string, stdin []byte, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	neutral, err := neutralFilters(ctx, dir, env)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, gitProgram, append(append([]string(nil), safeConfig...), args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(gitEnv(), env...), neutral...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout limitedBuffer
	var stderr limitedBuffer
	stdout.max, stderr.max = maxGitOutput, 8<<10
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if stdout.over {
		return nil, fmt.Errorf("git %s: %w", args[0], errTooLarge)
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if ctx.Err() != nil {
			msg = "timed out after " + gitTimeout.String()
		}
		return stdout.Bytes(), &gitError{op: args[0], msg: msg, err: err}
	}
	return stdout.Bytes(), nil
}

// gitError is a failed git command with what it said.
type gitError struct {
	op, msg string
	err     error
}

func (e *gitError) Error() string {
	if e.msg == "" {
		return fmt.Sprintf("git %s: %v", e.op, e.err)
	}
	return fmt.Sprintf("git %s: %s", e.op, e.msg)
}

func (e *gitError) Unwrap() error { return e.err }

// exitCode is the exit status of a failed git command, -1 when it did not
// run to an exit.
func exitCode(err error) int {
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		return ee.ExitCode()
	}
	return -1
}

// gitEnv is the process environment minus the variables that would point
// git at another repository or index, plus a fixed locale and identity so
// output parses and snapshot commits never ask who is committing.
func gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "GIT_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "GIT_LITERAL_PATHSPECS=1",
		"GIT_AUTHOR_NAME=baton", "GIT_AUTHOR_EMAIL=baton@localhost",
		"GIT_COMMITTER_NAME=baton", "GIT_COMMITTER_EMAIL=baton@localhost")
}

// limitedBuffer keeps up to max bytes and notes when more came.
type limitedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

// Write implements io.Writer; it never fails, so the command is not
// killed by a broken pipe before its exit status is known.
func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room < len(p) {
		b.over = true
		if room > 0 {
			b.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return b.Buffer.Write(p)
}
