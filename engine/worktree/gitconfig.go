package worktree

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// filterKeys are the settings of a filter driver that name a program git
// runs on file contents: when files are added (clean) and checked out
// (smudge, process).
var filterKeys = map[string]bool{"clean": true, "smudge": true, "process": true}

// neutralFilters lists the repository's filter drivers and returns the
// environment that switches each one off for one git command
// (GIT_CONFIG_COUNT entries, which win over every config file).
//
// A repository's .git/config is untrusted: the workspace is writable to
// sandboxed commands, so a command (or a test a repository ships) can add
// `[filter "x"] clean = …` and `* filter=x` to .gitattributes. baton's own
// git runs unsandboxed, so without this a snapshot's `git add` ran that
// program outside the sandbox. Drivers cannot be switched off by pattern,
// only by name, so the names are read first; reading config runs nothing.
// env is the command's own environment (a git directory it names).
func neutralFilters(ctx context.Context, dir string, env []string) ([]string, error) {
	cmd := exec.CommandContext(ctx, gitProgram, append(append([]string(nil), safeConfig...), "config", "-z", "--name-only", "--list")...)
	cmd.Dir = dir
	cmd.Env = append(gitEnv(), env...)
	var stdout, stderr limitedBuffer
	stdout.max, stderr.max = maxGitOutput, 8<<10
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if stdout.over {
			return nil, fmt.Errorf("git config: %w", errTooLarge)
		}
		return nil, &gitError{op: "config", msg: strings.TrimSpace(stderr.String()), err: err}
	}
	seen := map[string]bool{}
	var pairs [][2]string
	for key := range bytes.SplitSeq(stdout.Bytes(), []byte{0}) {
		section, rest, ok := strings.Cut(string(key), ".")
		if !ok || !strings.EqualFold(section, "filter") {
			continue
		}
		dot := strings.LastIndexByte(rest, '.')
		if dot < 0 || seen[rest[:dot]] {
			continue
		}
		name := rest[:dot]
		seen[name] = true
		for k := range filterKeys {
			pairs = append(pairs, [2]string{"filter." + name + "." + k, ""})
		}
		pairs = append(pairs, [2]string{"filter." + name + ".required", "false"})
	}
	if len(pairs) == 0 {
		return nil, nil
	}
	off := []string{"GIT_CONFIG_COUNT=" + strconv.Itoa(len(pairs))}
	for i, p := range pairs {
		n := strconv.Itoa(i)
		off = append(off, "GIT_CONFIG_KEY_"+n+"="+p[0], "GIT_CONFIG_VALUE_"+n+"="+p[1])
	}
	return off, nil
}
