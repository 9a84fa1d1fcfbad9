package tools

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Git looks for .git from the folder it runs in upwards, so a `.git` a
// command leaves in a subfolder (a `gitdir:` file naming a directory it
// wrote) is the repository the person's next git command uses there; a
// submodule's `.git` file is read by every `git status` of the
// repository above. nestedGitEntries finds the .git entries below the
// workspace's top, so that each is guarded like the top one, and one that
// appears is taken away unless git would run nothing from it. The walk
// skips folders and stops at a bound, but `git status` looks into every
// submodule the index names wherever it lies, and a command can stage
// one (`git add node_modules/evil`): those are always included.

// maxNestedWalk bounds the folders looked into; skipNested are folders
// people do not run git in and that hold the most folders.
const maxNestedWalk = 10000

var skipNested = []string{"node_modules", ".git", "target", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache", ".gradle", ".next"}

// nestedGitEntries lists the .git entries below root, in a walk of at
// most maxNestedWalk folders that does not follow links, and those of the
// submodules the index names.
func nestedGitEntries(root string) []string {
	out := walkNestedGit(root)
	for _, p := range gitlinkEntries(root) {
		if _, err := os.Lstat(p); err == nil && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// walkNestedGit is the walk of nestedGitEntries.
func walkNestedGit(root string) []string {
	var out []string
	queue := []string{root}
	for seen := 0; len(queue) > 0 && seen < maxNestedWalk; seen++ {
		dir := queue[0]
		queue = queue[1:]
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			switch {
			case e.Name() == ".git":
				if dir != root {
					out = append(out, p)
				}
			case e.IsDir() && !slices.Contains(skipNested, e.Name()):
				queue = append(queue, p)
			}
		}
	}
	return out
}

// gitlinkTimeout bounds listing the index; a repository whose index git
// cannot list in that time is taken to name no submodule.
const gitlinkTimeout = 10 * time.Second

// gitlinkCache keeps the last listing per index file, by changeStamp,
// so that a command that did not touch the index costs a stat.
var gitlinkCache = struct {
	sync.Mutex
	m map[string]gitlinkListing
}{m: map[string]gitlinkListing{}}

type gitlinkListing struct {
	stamp string
	paths []string
}

// gitlinkEntries lists the .git of every submodule (gitlink, mode
// 160000) the index names at or below root, as git ls-files reads the
// index (every version, split and sparse indexes included). git runs
// with its fsmonitor and hooks off and the caller's GIT_ variables
// dropped, so that it reads the repository as it is found from root.
func gitlinkEntries(root string) []string {
	gitDir, _ := findGitDirs(root)
	if gitDir == "" {
		return nil
	}
	index := filepath.Join(gitDir, "index")
	stamp := changeStamp(index)
	gitlinkCache.Lock()
	cached, ok := gitlinkCache.m[index]
	gitlinkCache.Unlock()
	if ok && stamp != "" && cached.stamp == stamp {
		return cached.paths
	}
	paths := listGitlinks(root)
	if stamp != "" {
		gitlinkCache.Lock()
		gitlinkCache.m[index] = gitlinkListing{stamp: stamp, paths: paths}
		gitlinkCache.Unlock()
	}
	return paths
}

// listGitlinks runs git ls-files in root and keeps the gitlinks' .git.
func listGitlinks(root string) []string {
	ctx, cancel := context.WithTimeout(context.Background(), gitlinkTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
		"ls-files", "--stage", "-z")
	cmd.Dir = root
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil || cmd.Start() != nil {
		return nil
	}
	var out []string
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	sc.Split(splitNUL)
	for sc.Scan() {
		// "<mode> <object> <stage>\t<path>"
		line := sc.Bytes()
		if !bytes.HasPrefix(line, []byte("160000 ")) {
			continue
		}
		if _, name, ok := bytes.Cut(line, []byte{'\t'}); ok && len(out) < maxGitSubdirs {
			out = append(out, filepath.Join(root, filepath.FromSlash(string(name)), ".git"))
		}
	}
	_, _ = io.Copy(io.Discard, stdout)
	_ = cmd.Wait()
	return out
}

// splitNUL is a bufio.SplitFunc for NUL-terminated records.
func splitNUL(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}
