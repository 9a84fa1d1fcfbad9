package rules

import (
	"path"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/shell"
)

// touchesCommand says whether a deny or ask rule covers one command a
// line runs (nested ones included: sh -c, eval, find -exec, xargs…),
// read past its wrappers (sudo, env, timeout…) and, for programs such as
// git, past the global options before the subcommand. It fails closed:
// a program only known when the shell runs is every program, and a word
// only known then matches whatever the rule says from there on.
func (r Rule) touchesCommand(c shell.Command) bool {
	argv := c.Program()
	if len(argv) == 0 {
		return false
	}
	if argv[0].Opaque {
		return true
	}
	if path.Base(r.Words[0]) == "git" {
		argv = undashed(argv)
	}
	if path.Base(argv[0].Text) != path.Base(r.Words[0]) {
		return false
	}
	if r.matchesArgs(argv[1:]) {
		return true
	}
	sub, known := shell.Subcommand(argv)
	if !known {
		return true
	}
	return sub > 1 && r.matchesArgs(argv[sub:])
}

// undashed reads git's dashed programs (git-push, the
// /usr/lib/git-core/git-push its exec path holds) as the subcommand
// they are: git push.
func undashed(argv []shell.Word) []shell.Word {
	sub, ok := strings.CutPrefix(path.Base(argv[0].Text), "git-")
	if !ok || sub == "" {
		return argv
	}
	return append([]shell.Word{{Text: "git"}, {Text: sub}}, argv[1:]...)
}

// coversCommand says whether an allow rule covers a command the shell
// reader found inside another's script: its program's leading words are
// exactly the rule's, none of them only known when it runs.
func (r Rule) coversCommand(c shell.Command) bool {
	argv := c.Program()
	if len(argv) < len(r.Words) || !r.Prefix && len(argv) != len(r.Words) {
		return false
	}
	for i, w := range argv {
		if w.Opaque && (i < len(r.Words) || !r.Prefix) || i < len(r.Words) && w.Text != r.Words[i] {
			return false
		}
	}
	return true
}

// matchesArgs matches the rule's words after the program against a
// command's arguments. An opaque argument may expand to any words, or
// none, so meeting one before a difference is a match.
func (r Rule) matchesArgs(args []shell.Word) bool {
	want := r.Words[1:]
	for i, w := range want {
		if i >= len(args) {
			return false
		}
		if args[i].Opaque {
			return true
		}
		if args[i].Text != w {
			return false
		}
	}
	if r.Prefix {
		return true
	}
	for _, extra := range args[len(want):] {
		if !extra.Opaque {
			return false
		}
	}
	return true
}
