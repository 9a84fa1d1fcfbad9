package shell

import (
	"path"
	"slices"
	"strings"
)

// UnknownDir stands, in Command.Dirs, for a folder the script does not
// say: another user's home (~user), the previous folder (cd -), a
// variable's (cd "$D"), the folders pushd keeps on its stack.
const UnknownDir = "?"

// maxDirs bounds the folders a command may run in that are told apart:
// each cd that may fail doubles them (cd a; cd b; …). Beyond it, the
// folder is unknown.
const maxDirs = 16

// dirs are the folders the shell may be in at a point of the script.
type dirs []string

// union is every folder of d and of more, each once, in order.
func (d dirs) union(more dirs) dirs {
	out := slices.Clone(d)
	for _, dir := range more {
		if !slices.Contains(out, dir) {
			out = append(out, dir)
		}
	}
	if len(out) > maxDirs {
		return dirs{UnknownDir}
	}
	slices.Sort(out)
	return out
}

// cd is where `cd args` or `pushd args` (program) moves the shell to from
// any of d, should it succeed; popd moves it to a folder of pushd's
// stack, which is not tracked.
func (d dirs) cd(program string, args []string) dirs {
	if program == "popd" {
		return dirs{UnknownDir}
	}
	var out dirs
	for _, dir := range d {
		out = out.union(dirs{changeDir(dir, program, args)})
	}
	return out
}

// changeDir is the directory after `cd args` or `pushd args` from dir,
// or UnknownDir when the destination depends on something the script
// does not say: another user's home (~user), the previous folder (cd -),
// the folders pushd keeps on its stack (pushd alone swaps with one,
// pushd +N rotates them, -n leaves the folder). A relative target from
// the folder the script started in ("") stays there as far as operands
// are concerned: they stay relative to it.
func changeDir(dir, program string, args []string) string {
	for program == "cd" && len(args) > 0 && (args[0] == "-P" || args[0] == "-L" || args[0] == "-e" || args[0] == "--") {
		args = args[1:]
	}
	if len(args) == 0 && program == "cd" {
		return "~"
	}
	if len(args) == 0 || program == "pushd" && (strings.HasPrefix(args[0], "-") || strings.HasPrefix(args[0], "+")) {
		return UnknownDir
	}
	target := args[0]
	switch {
	case target == "$HOME" || target == "${HOME}":
		return "~"
	case strings.HasPrefix(target, "/"), target == "~", strings.HasPrefix(target, "~/"):
		return path.Clean(target)
	case strings.ContainsAny(target, "$`") || strings.HasPrefix(target, "~") || target == "-" || dir == UnknownDir:
		return UnknownDir
	case dir == "":
		return ""
	}
	return path.Join(dir, target)
}
