package shell

import (
	"path"
	"slices"
	"strings"
)

// wrapper describes a command that runs another one: the short options
// that take a value as the next word, the long ones that do, and how many
// operands come before the wrapped command (timeout's duration).
type wrapper struct {
	short    string
	long     []string
	operands int
}

// wrappers run the command after their own options and operands.
var wrappers = map[string]wrapper{
	"sudo":     {short: "ugCDhprtUT", long: []string{"--user", "--group", "--chdir", "--host", "--prompt", "--role", "--type", "--close-from"}},
	"doas":     {short: "uC"},
	"env":      {short: "uCS", long: []string{"--unset", "--chdir", "--split-string"}},
	"nice":     {short: "n", long: []string{"--adjustment"}},
	"ionice":   {short: "cnpt", long: []string{"--class", "--classdata"}},
	"timeout":  {short: "sk", long: []string{"--signal", "--kill-after"}, operands: 1},
	"nohup":    {},
	"time":     {short: "fo", long: []string{"--format", "--output"}},
	"command":  {},
	"builtin":  {},
	"exec":     {short: "a"},
	"stdbuf":   {short: "ioe", long: []string{"--input", "--output", "--error"}},
	"xargs":    {short: "IEdLnPsa", long: []string{"--delimiter", "--eof", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--arg-file", "--process-slot-var"}},
	"setsid":   {},
	"unbuffer": {},
	"busybox":  {},
	"chronic":  {},
	"flock":    {short: "wEc", long: []string{"--timeout", "--conflict-exit-code", "--command"}, operands: 1},
	"chrt":     {operands: 1},
	"taskset":  {operands: 1},
}

// Unwrap drops what runs a command on another's behalf (variable
// assignments, sudo, env, nice, timeout, nohup, xargs…) so that rules see
// the command itself. `command -v` and `-V` only look a name up, so they
// unwrap to nothing.
func Unwrap(argv []string) []string {
	for len(argv) > 0 {
		if isAssignment(argv[0]) {
			argv = argv[1:]
			continue
		}
		name := path.Base(argv[0])
		wr, ok := wrappers[name]
		if !ok {
			return argv
		}
		if name == "command" && slices.ContainsFunc(argv[1:], func(a string) bool { return a == "-v" || a == "-V" }) {
			return nil
		}
		var split []string
		argv, split = skipOptions(argv[1:], wr)
		argv = append(split, argv...)
		if name == "env" || name == "sudo" || name == "doas" {
			for len(argv) > 0 && isAssignment(argv[0]) {
				argv = argv[1:]
			}
		}
		for i := 0; i < wr.operands && len(argv) > 0; i++ {
			argv = argv[1:]
		}
	}
	return argv
}

// skipOptions drops a wrapper's leading options and returns the rest,
// plus the words of env's -S string, which env splits into arguments.
func skipOptions(args []string, wr wrapper) (rest, split []string) {
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		var value string
		hasValue := false
		if strings.HasPrefix(a, "--") {
			name, v, inline := strings.Cut(a, "=")
			if slices.Contains(wr.long, name) {
				value, hasValue = v, true
				if !inline && len(args) > 0 {
					value, args = args[0], args[1:]
				}
			}
			if name == "--split-string" && hasValue {
				split = append(split, strings.Fields(value)...)
			}
			continue
		}
		for i := 1; i < len(a); i++ {
			if strings.IndexByte(wr.short, a[i]) < 0 {
				continue
			}
			value = a[i+1:]
			if value == "" && len(args) > 0 {
				value, args = args[0], args[1:]
			}
			if a[i] == 'S' {
				split = append(split, strings.Fields(value)...)
			}
			break
		}
	}
	return args, split
}

// isAssignment reports whether a word is NAME=value.
func isAssignment(w string) bool {
	i := strings.IndexByte(w, '=')
	if i <= 0 {
		return false
	}
	for j, c := range w[:i] {
		if c != '_' && !(c >= 'A' && c <= 'Z') && !(c >= 'a' && c <= 'z') && (j == 0 || !(c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

// shells run a script given with -c, or read one from stdin.
var shells = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "su"}

// IsShell reports whether an unwrapped argv starts a shell.
func IsShell(argv []string) bool {
	return len(argv) > 0 && slices.Contains(shells, path.Base(argv[0]))
}

// InnerScript returns the script a command runs from a string: the
// operand of a shell's -c (or su's --command), or eval's arguments.
func InnerScript(argv []string) (string, bool) {
	if len(argv) == 0 {
		return "", false
	}
	if path.Base(argv[0]) == "eval" {
		return strings.Join(argv[1:], " "), len(argv) > 1
	}
	if !IsShell(argv) {
		return "", false
	}
	args := argv[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--command" || strings.HasPrefix(a, "--command="):
			if v, ok := strings.CutPrefix(a, "--command="); ok {
				return v, true
			}
			if i+1 < len(args) {
				return args[i+1], true
			}
		case a == "-o" || a == "+o" || a == "-O" || a == "+O":
			i++ // the option's name
		case len(a) > 1 && (a[0] == '-' || a[0] == '+') && a[1] != '-' && strings.ContainsRune(a, 'c'):
			for _, b := range args[i+1:] {
				if !strings.HasPrefix(b, "-") {
					return b, true
				}
			}
			return "", false
		}
	}
	return "", false
}

// findExecs lists the commands find runs with -exec, -execdir, -ok and
// -okdir, each up to its ";" or "+".
func findExecs(argv []string) [][]string {
	if path.Base(argv[0]) != "find" {
		return nil
	}
	var out [][]string
	for i := 1; i < len(argv); i++ {
		switch argv[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(argv) && argv[j] != ";" && argv[j] != "+" {
				j++
			}
			if j > i+1 {
				out = append(out, argv[i+1:j])
			}
			i = j
		}
	}
	return out
}
