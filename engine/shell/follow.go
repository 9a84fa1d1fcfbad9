package shell

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// follow walks what a command runs from its arguments (sh -c, eval,
// find -exec, at every layer of wrappers) or from a here-document fed to
// a shell, and tracks cd.
func (w *walker) follow(cmd Command, s *syntax.Stmt) {
	argv := cmd.Words()
	scripts := innerScripts(argv)
	var values []Word
	for {
		next, assigns, ok := unwrapOnce(argv)
		if !ok {
			break
		}
		for _, a := range assigns {
			values = append(values, assignmentScripts(a)...)
		}
		argv = next
		scripts = append(scripts, innerScripts(argv)...)
	}
	for _, v := range append(values, gitScripts(argv)...) {
		w.nestedValue(v)
	}
	for _, script := range scripts {
		w.nested(script)
	}
	if len(argv) == 0 {
		return
	}
	if len(scripts) == 0 && isShell(argv) {
		for _, r := range s.Redirs {
			if r.Hdoc != nil && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) {
				text, opaque := w.hdocText(r.Hdoc, r.Word != nil && hdocQuoted(r.Word))
				w.nested(Word{Text: text, Opaque: opaque})
			}
			if r.Op == syntax.WordHdoc && r.Word != nil {
				w.nested(joined(w.expand(r.Word)))
			}
		}
	}
	for _, exec := range findExecs(argv) {
		inner := Command{Args: texts(exec), Opaque: opacity(exec), Dir: cmd.Dir, Func: cmd.Func, Depth: cmd.Depth}
		w.out = append(w.out, inner)
		w.follow(inner, &syntax.Stmt{})
	}
	switch path.Base(argv[0].Text) {
	case "cd", "pushd":
		w.dir = changeDir(w.dir, path.Base(argv[0].Text), texts(argv[1:]))
	case "popd":
		w.dir = "" // the folder pushd left on its stack, which is not tracked
	}
}

// opacity is the Opaque flags of words.
func opacity(words []Word) []bool {
	out := make([]bool, len(words))
	for i, w := range words {
		out[i] = w.Opaque
	}
	return out
}

// pipedScript follows `echo 'script' | sh`: text piped into a shell that
// reads its script from stdin. What other commands pipe into a shell
// (curl …, cat file, a pipeline of its own: … | tee log | sh, a
// subshell) is a script only known when it runs.
func (w *walker) pipedScript(c *syntax.BinaryCmd) {
	right, rok := c.Y.Cmd.(*syntax.CallExpr)
	if !rok || len(right.Args) == 0 {
		return
	}
	var rargs []Word
	for _, word := range right.Args {
		rargs = append(rargs, w.expand(word)...)
	}
	rargs = unwrap(rargs)
	if !isShell(rargs) || len(innerScripts(rargs)) > 0 || hasOperand(rargs[1:]) {
		return
	}
	if left, ok := c.X.Cmd.(*syntax.CallExpr); ok && len(left.Args) > 0 {
		var largs []Word
		for _, word := range left.Args {
			largs = append(largs, w.expand(word)...)
		}
		largs = unwrap(largs)
		if len(largs) > 0 && !largs[0].Opaque {
			if text, ok := printedText(largs); ok {
				w.nested(text)
				return
			}
		}
	}
	w.nested(Word{Opaque: true})
}

// printedText is what an echo or printf command line prints, when the
// line says it outright: echo's words after its -n, -e and -E flags,
// printf's format alone when it holds no conversion. A backslash (an
// escape that echo -e, dash's echo or printf turn into other text) or a
// conversion (printf 'r%s x' m) makes the output other than the words
// read, so ok is false.
func printedText(argv []Word) (Word, bool) {
	args := argv[1:]
	switch path.Base(argv[0].Text) {
	case "echo":
		for len(args) > 0 && !args[0].Opaque && isEchoFlags(args[0].Text) {
			args = args[1:]
		}
	case "printf":
		if len(args) > 0 && args[0].Text == "--" {
			args = args[1:]
		}
		if len(args) != 1 || strings.Contains(args[0].Text, "%") {
			return Word{}, false
		}
	default:
		return Word{}, false
	}
	text := joined(args)
	return text, !strings.Contains(text.Text, `\`)
}

// isEchoFlags reports whether a word is a bundle of echo's flags (-n,
// -e, -E, -ne…), which bash's echo takes as options, not text.
func isEchoFlags(word string) bool {
	return len(word) > 1 && word[0] == '-' && strings.Trim(word[1:], "neE") == ""
}

// hasOperand reports whether a shell's arguments name a script file,
// so that what is piped in is the script's data, not its code.
func hasOperand(args []Word) bool {
	for i := 0; i < len(args); i++ {
		a := args[i].Text
		switch {
		case a == "-o" || a == "+o" || a == "-O" || a == "+O":
			i++
		case a == "-s":
			return false
		case a == "--":
			return i+1 < len(args)
		case !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+"):
			return true
		}
	}
	return false
}

// changeDir is the directory after `cd args` or `pushd args` from dir,
// or "" when the destination depends on something the script does not
// say: another user's home (~user), the previous folder (cd -), the
// folders pushd keeps on its stack (pushd alone swaps with one, pushd +N
// rotates them, -n leaves the folder).
func changeDir(dir, program string, args []string) string {
	for program == "cd" && len(args) > 0 && (args[0] == "-P" || args[0] == "-L" || args[0] == "-e" || args[0] == "--") {
		args = args[1:]
	}
	if len(args) == 0 && program == "cd" {
		return "~"
	}
	if len(args) == 0 || program == "pushd" && (strings.HasPrefix(args[0], "-") || strings.HasPrefix(args[0], "+")) {
		return ""
	}
	target := args[0]
	switch {
	case target == "$HOME" || target == "${HOME}":
		return "~"
	case strings.HasPrefix(target, "/"), target == "~", strings.HasPrefix(target, "~/"):
		return path.Clean(target)
	case strings.ContainsAny(target, "$`") || strings.HasPrefix(target, "~") || target == "-" || dir == "":
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
