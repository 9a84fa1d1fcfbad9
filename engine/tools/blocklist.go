package tools

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/shell"
)

// rule is one destructive pattern: reason names it in the refusal, match
// looks at a simple command's name (base name of argv[0]) and its
// arguments, relative operands already resolved against a known cd.
type rule struct {
	reason string
	match  func(name string, args []string) bool
}

// rules are refused whatever the permission mode, --yolo included. The
// kernel sandbox is the real wall; these catch the commands nobody ever
// means to approve, however they are spelled.
var rules = []rule{
	{"rm -rf of the filesystem root", func(name string, args []string) bool {
		return name == "rm" && hasFlag(args, "rR", "--recursive") && slices.ContainsFunc(operands(args), isRoot)
	}},
	{"rm -rf of the home directory", func(name string, args []string) bool {
		return name == "rm" && hasFlag(args, "rR", "--recursive") && slices.ContainsFunc(operands(args), isHome)
	}},
	{"recursive chmod or chown of the filesystem root", func(name string, args []string) bool {
		return (name == "chmod" || name == "chown" || name == "chgrp") &&
			hasFlag(args, "R", "--recursive") && slices.ContainsFunc(operands(args), isRoot)
	}},
	{"mkfs formats a filesystem", func(name string, _ []string) bool {
		return strings.HasPrefix(name, "mkfs") || name == "mke2fs"
	}},
	{"dd writing to a device", func(name string, args []string) bool {
		return name == "dd" && slices.ContainsFunc(args, func(a string) bool {
			dev, ok := strings.CutPrefix(a, "of=")
			return ok && isDevice(dev)
		})
	}},
	{"git push --force rewrites the remote's history", isForcePush},
	{"shutdown or reboot of the machine", isShutdown},
}

// CheckCommand refuses a command line that matches one of the safety
// rules anywhere in it: in compound commands, subshells, functions,
// substitutions, behind wrappers (sudo, env, timeout, xargs…) and in
// scripts handed to eval or sh -c. A line the parser cannot read is
// refused too, since what cannot be checked cannot be allowed.
func CheckCommand(cmd string) error {
	cmds, err := shell.Parse(cmd)
	if errors.Is(err, shell.ErrTooDeep) {
		return refused(fmt.Sprintf("scripts nested more than %d deep cannot be checked", shell.MaxDepth))
	}
	if err != nil {
		return fmt.Errorf("run_command: cannot check the command, so it is refused: %w", err)
	}
	for _, c := range cmds {
		if c.Func != "" && len(c.Args) > 0 && c.Args[0] == c.Func && (c.Piped || c.Background) {
			return refused("a fork bomb")
		}
		// Every folder the command may run in: `cd /; cd x; rm -rf *`
		// is rm -rf /x/* or, x missing, rm -rf /*.
		for _, dir := range c.Dirs {
			if err := checkIn(dir, c); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkIn checks one command run in the folder dir.
func checkIn(dir string, c shell.Command) error {
	for _, r := range c.Redirs {
		if isOutput(r.Op) && isDisk(resolve(dir, r.Target)) {
			return refused("writing to a disk device")
		}
	}
	argv := shell.Unwrap(c.Args)
	if len(argv) == 0 {
		return nil
	}
	name := path.Base(argv[0])
	args := make([]string, len(argv)-1)
	for i, a := range argv[1:] {
		args[i] = resolve(dir, a)
	}
	for _, r := range rules {
		if r.match(name, args) {
			return refused(r.reason)
		}
	}
	return nil
}

// resolve places a relative operand in the folder a literal cd moved
// to, so `cd / && rm -rf *` is seen as rm -rf /*. A folder the line does
// not say (shell.UnknownDir: cd "$D", cd -, popd) may be the root: the
// operand is placed there, so that rm -rf * is refused and rm -rf build
// is not.
func resolve(dir, arg string) string {
	if dir == "" || arg == "" || strings.HasPrefix(arg, "-") || strings.HasPrefix(arg, "/") ||
		strings.HasPrefix(arg, "~") || strings.HasPrefix(arg, "$") || strings.Contains(arg, "=") {
		return arg
	}
	if dir == shell.UnknownDir {
		dir = "/"
	}
	return path.Join(dir, arg)
}

// isOutput reports whether a redirection operator writes.
func isOutput(op string) bool {
	switch op {
	case ">", ">>", ">|", "<>", "&>", "&>>":
		return true
	}
	return false
}

// refused is the error of a command the safety rules stop.
func refused(reason string) error {
	return fmt.Errorf("refused by baton's safety rules: %s", reason)
}
