package shell

import "strings"

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
