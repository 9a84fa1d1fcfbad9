package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// commandVars are environment variables whose value is a command that
// some program runs: `EDITOR='rm x' git commit` runs rm.
var commandVars = []string{
	"EDITOR", "VISUAL", "PAGER", "MANPAGER", "BROWSER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER",
	"GIT_SSH", "GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS",
	"LESSOPEN", "LESSCLOSE", "PROMPT_COMMAND", "PS4", "GIT_PROXY_COMMAND",
}

// unseenVars make a program run code from somewhere the line does not
// show: a file a shell reads first (BASH_ENV), a function a shell
// imports (BASH_FUNC_name%%), git settings or git's own programs.
var unseenVars = []string{
	"BASH_ENV", "ENV", "BASH_FUNC_*", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_*",
	"GIT_CONFIG_VALUE_*", "GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_EXEC_PATH",
	"GIT_ALLOW_PROTOCOL",
}

// varScripts is what setting an environment variable may run: the
// value of a command variable (less's "|command %s" included), or an
// opaque script for a variable that brings in what the line does not
// show.
func varScripts(name string, value Word) []Word {
	switch {
	case matchesAny(unseenVars, name):
		return []Word{{Opaque: true}}
	case matchesAny(commandVars, name):
		value.Text = strings.TrimLeft(value.Text, "|")
		return []Word{value}
	}
	return nil
}

// assignmentScripts is varScripts for an assignment word (NAME=value)
// as env or sudo read it.
func assignmentScripts(w Word) []Word {
	name, value, _ := strings.Cut(w.Text, "=")
	return varScripts(name, Word{Text: value, Opaque: w.Opaque})
}

// isEnvAssignment reports whether env or sudo take a word as a variable
// to set rather than as the program: any word with "=" in it, which
// may name variables the shell could not (BASH_FUNC_f%%).
func isEnvAssignment(w Word) bool {
	return !w.Opaque && strings.IndexByte(w.Text, '=') > 0
}

// varSetters are the builtins that set the variables their operands
// name to a value the line does not show: from input (read, mapfile),
// from a format (printf -v) or an option (getopts).
var varSetters = []string{"read", "mapfile", "readarray", "printf", "getopts"}

// setsCommandVarUnseen reports whether a parsed script sets a command
// variable (see commandVars and unseenVars) other than by an assignment
// the walker reads: a for or select loop's variable, ${VAR:=word}, or a
// builtin of varSetters naming it. A variable the person's environment
// exports stays exported when the script sets it, so
// `read GIT_SSH_COMMAND <<< 'rm x'; git fetch` runs rm.
func setsCommandVarUnseen(f *syntax.File) bool {
	commandVar := func(name string) bool { return matchesAny(commandVars, name) || matchesAny(unseenVars, name) }
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.ForClause:
			if it, ok := x.Loop.(*syntax.WordIter); ok && it.Name != nil && commandVar(it.Name.Value) {
				found = true
			}
		case *syntax.ParamExp:
			if x.Param != nil && x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull) && commandVar(x.Param.Value) {
				found = true
			}
		case *syntax.CallExpr:
			setter := false
			for _, word := range x.Args {
				text := literalText(word)
				setter = setter || slices.Contains(varSetters, text)
				if setter && (commandVar(text) || commandVar(strings.TrimPrefix(text, "-v"))) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
