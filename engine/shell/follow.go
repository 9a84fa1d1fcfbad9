package shell

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// follow walks what a command runs from its arguments (sh -c, eval,
// find -exec) or from a here-document fed to a shell, and tracks cd.
func (w *walker) follow(cmd Command, s *syntax.Stmt) {
	argv := Unwrap(cmd.Args)
	if len(argv) == 0 {
		return
	}
	if inner, ok := InnerScript(argv); ok {
		w.nested(inner)
	} else if IsShell(argv) {
		for _, r := range s.Redirs {
			if r.Hdoc != nil && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) {
				w.nested(w.hdocText(r.Hdoc))
			}
			if r.Op == syntax.WordHdoc && r.Word != nil {
				w.nested(strings.Join(w.words(r.Word), " "))
			}
		}
	}
	for _, exec := range findExecs(argv) {
		inner := Command{Args: exec, Dir: cmd.Dir, Func: cmd.Func, Depth: cmd.Depth}
		w.out = append(w.out, inner)
		w.follow(inner, &syntax.Stmt{})
	}
	if path.Base(argv[0]) == "cd" || path.Base(argv[0]) == "pushd" {
		w.dir = changeDir(w.dir, argv[1:])
	}
}

// pipedScript follows `echo 'script' | sh`: literal text piped into a
// shell that reads its script from stdin.
func (w *walker) pipedScript(c *syntax.BinaryCmd) {
	left, lok := c.X.Cmd.(*syntax.CallExpr)
	right, rok := c.Y.Cmd.(*syntax.CallExpr)
	if !lok || !rok || len(left.Args) == 0 || len(right.Args) == 0 {
		return
	}
	var largs, rargs []string
	for _, word := range left.Args {
		largs = append(largs, w.words(word)...)
	}
	for _, word := range right.Args {
		rargs = append(rargs, w.words(word)...)
	}
	largs, rargs = Unwrap(largs), Unwrap(rargs)
	if len(largs) == 0 || !IsShell(rargs) {
		return
	}
	if _, ok := InnerScript(rargs); ok {
		return
	}
	switch path.Base(largs[0]) {
	case "echo", "printf":
		w.nested(strings.Join(largs[1:], " "))
	}
}

// changeDir is the directory after `cd args` from dir, or "" when the
// destination depends on something the script does not say.
func changeDir(dir string, args []string) string {
	for len(args) > 0 && (args[0] == "-P" || args[0] == "-L" || args[0] == "-e" || args[0] == "--") {
		args = args[1:]
	}
	if len(args) == 0 {
		return "~"
	}
	target := args[0]
	switch {
	case target == "$HOME" || target == "${HOME}":
		return "~"
	case strings.HasPrefix(target, "/"), target == "~", strings.HasPrefix(target, "~/"):
		return path.Clean(target)
	case strings.ContainsAny(target, "$`") || target == "-" || dir == "":
		return ""
	}
	return path.Join(dir, target)
}

func cloneVars(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
