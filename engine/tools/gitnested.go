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

// maxGitlinkDepth bounds how deep submodules of submodules are listed.
const maxGitlinkDepth = 4

// gitlinkEntries lists the .git of every submodule (gitlink, mode
// 160000) the index names at or below root, and those their own indexes
// name, as git status looks into each in turn. It looks into a submodule
// only where git would read nothing a command chose: one whose .git file
// names a folder under the repository's modules/ (guarded like the rest
// of the git directory), or whose git folder is quiet.
func gitlinkEntries(root string) []string {
	_, common := findGitDirs(root)
	if common == "" {
		return nil
	}
	type repo struct {
		dir   string
		depth int
	}
	var out []string
	queue := []repo{{root, 0}}
	for len(queue) > 0 && len(out) < maxGitSubdirs {
		r := queue[0]
		queue = queue[1:]
		for _, p := range indexGitlinks(r.dir) {
			if slices.Contains(out, p) || len(out) >= maxGitSubdirs {
				continue
			}
			out = append(out, p)
			if r.depth+1 < maxGitlinkDepth && lookableSubmodule(p, common) {
				queue = append(queue, repo{filepath.Dir(p), r.depth + 1})
			}
		}
	}
	return out
}

// lookableSubmodule reports whether the git directory a submodule's .git
// leads to is one baton may run git ls-files in: under common's modules/,
// or a quiet folder.
func lookableSubmodule(dotGit, common string) bool {
	info, err := os.Lstat(dotGit)
	switch {
	case err != nil:
		return false
	case info.Mode().IsRegular():
		target := pointedTo(filepath.Dir(dotGit), dotGit, "gitdir:")
		return target != "" && within(filepath.Join(common, "modules"), target)
	case info.IsDir():
		return onlyQuietSettings(filepath.Join(dotGit, "config"))
	}
	return false
}

// indexGitlinks lists the gitlinks of the repository found from dir,
// from the cache while its index is unchanged.
func indexGitlinks(dir string) []string {
	gitDir, _ := findGitDirs(dir)
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
	paths := listGitlinks(dir, "")
	if stamp != "" {
		gitlinkCache.Lock()
		gitlinkCache.m[index] = gitlinkListing{stamp: stamp, paths: paths}
		gitlinkCache.Unlock()
	}
	return paths
}

// gitProgram is the git found on $PATH when baton starts, before any
// command could leave a `git` in a folder on $PATH that commands write
// (which the check after each command takes away, but only after it has
// looked at the repositories the command made). "" without git.
var gitProgram = func() string {
	p, err := exec.LookPath("git")
	if err != nil {
		return ""
	}
	return p
}()

// listGitlinks runs git ls-files in root and keeps the gitlinks' .git;
// gitDir, when set, is the git directory to read instead of the one git
// finds from root.
func listGitlinks(root, gitDir string) []string {
	ctx, cancel := context.WithTimeout(context.Background(), gitlinkTimeout)
	defer cancel()
	if gitProgram == "" {
		return nil
	}
	cmd := exec.CommandContext(ctx, gitProgram, "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
		"ls-files", "--stage", "-z")
	cmd.Dir = root
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	// Reading the index needs no object, no lock and no network.
	cmd.Env = append(cmd.Env, "GIT_NO_LAZY_FETCH=1", "GIT_OPTIONAL_LOCKS=0")
	if gitDir != "" {
		cmd.Env = append(cmd.Env, "GIT_DIR="+gitDir, "GIT_WORK_TREE="+root)
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
