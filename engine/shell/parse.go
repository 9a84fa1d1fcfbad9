// Package shell reads a shell command line the way the shell would, with
// a real parser (mvdan.cc/sh), and lists every simple command it runs:
// inside compound commands, subshells, functions, command and process
// substitutions, and scripts handed to eval, sh -c, a here-string or a
// pipe into a shell. The blocklist matches on this list; permission
// rules (engine/rules) parse with the same parser and unescape words with
// Unescape, so a quoting trick reads the same to both.
package shell

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// MaxDepth bounds how many scripts-inside-strings (sh -c, eval, a
// here-string to a shell) Parse follows; deeper nesting is an error, since
// a checker that gives up must not say yes.
const MaxDepth = 4

// ErrTooDeep is returned for scripts nested deeper than MaxDepth.
var ErrTooDeep = errors.New("scripts nested too deep to check")

// Command is one simple command a script runs.
type Command struct {
	// Args are the words after quote removal, brace expansion and the
	// substitution of variables assigned earlier in the script. Words
	// that depend on the environment keep their source text ("$HOME",
	// "$(…)"), and globs stay unexpanded ("/*").
	Args []string
	// Opaque says, for each of Args, whether the word is only known when
	// the shell runs (see Word).
	Opaque []bool
	// Dirs are every folder the command may run in, as far as the
	// script says: where a preceding `cd` with a literal operand moved
	// to ("/", "~", "/tmp/x"), "" for the folder the script started in,
	// UnknownDir for one it does not say (cd "$D", cd -, popd). A cd
	// may fail (a folder that does not exist, or no longer does when it
	// runs): unless the command runs only on its success (cd x && …),
	// the folder before it stays among them.
	Dirs []string
	// Redirs are the command's redirections.
	Redirs []Redirect
	// Func names the function whose body holds the command, if any.
	Func string
	// Piped and Background tell whether the command is part of a
	// pipeline or runs in the background (&).
	Piped, Background bool
	// Depth is 0 for the command line itself and grows by one for each
	// script-in-a-string the command was found in.
	Depth int
}

// Word is one word a command is given, as the shell would pass it.
type Word struct {
	// Text is the word rendered like Command.Args.
	Text string
	// Opaque says the word is only known when the shell runs: it holds a
	// substitution, a variable (even one the script assigned, which a
	// branch may have changed), arithmetic or an unquoted glob, or it
	// comes from a brace expansion. It may stand for any word, or for
	// any number of them.
	Opaque bool
}

// Words are the command's arguments with their opacity.
func (c Command) Words() []Word {
	out := make([]Word, len(c.Args))
	for i, a := range c.Args {
		out[i] = Word{Text: a, Opaque: i < len(c.Opaque) && c.Opaque[i]}
	}
	return out
}

// Program is what the command runs once wrappers are dropped (sudo, env,
// timeout, xargs…; see Unwrap): the program word first. When the first
// word is opaque, the program is unknown; so it is when an opaque word
// sits where a wrapper's options or operands are, since it may shift
// which word is the program.
func (c Command) Program() []Word {
	return unwrap(c.Words())
}

// Redirect is one redirection: its operator (">", ">>", "<", "<<<"…) and
// its target word, rendered like Command.Args.
type Redirect struct {
	Op     string
	Target string
}

// Parse lists the simple commands of a script, in source order, nested
// ones included. A script that does not parse, or nests too deep, is an
// error: callers refuse what they cannot read.
func Parse(src string) ([]Command, error) {
	w := &walker{vars: map[string]string{}, dirs: dirs{""}}
	if err := w.script(src, 0); err != nil {
		return nil, err
	}
	return w.out, nil
}

// parseFile parses src as bash, the shell commands run under.
func parseFile(src string) (*syntax.File, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, fmt.Errorf("parse command: %w", err)
	}
	return f, nil
}
