package shell

import (
	"path"
	"slices"
	"strings"
	"sync"
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
func wrappers() map[string]wrapper {
	wrappersOnce.Do(func() { wrappersValue = buildWrappers() })
	return wrappersValue
}

// wrappersOnce and wrappersValue hold the table, built on first use
// (a zero sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	wrappersOnce  sync.Once
	wrappersValue map[string]wrapper
)

// buildWrappers builds the table.
func buildWrappers() map[string]wrapper {
	return map[string]wrapper{
		"sudo":             {short: "ugCDhprtUTR", long: []string{"--user", "--group", "--chdir", "--host", "--prompt", "--role", "--type", "--close-from", "--chroot", "--other-user", "--command-timeout"}},
		"doas":             {short: "uC"},
		"pkexec":           {long: []string{"--user"}},
		"runuser":          {short: "ugG", long: []string{"--user", "--group", "--supp-group"}},
		"env":              {short: "uCS", long: []string{"--unset", "--chdir", "--split-string"}},
		"nice":             {short: "n", long: []string{"--adjustment"}},
		"ionice":           {short: "cnpPu", long: []string{"--class", "--classdata"}},
		"chrt":             {short: "TPD", long: []string{"--sched-runtime", "--sched-period", "--sched-deadline"}, operands: 1},
		"taskset":          {operands: 1},
		"numactl":          {short: "CNmpi", long: []string{"--physcpubind", "--cpunodebind", "--membind", "--preferred", "--interleave"}},
		"timeout":          {short: "sk", long: []string{"--signal", "--kill-after"}, operands: 1},
		"nohup":            {},
		"time":             {short: "fo", long: []string{"--format", "--output"}},
		"command":          {},
		"builtin":          {},
		"exec":             {short: "a"},
		"stdbuf":           {short: "ioe", long: []string{"--input", "--output", "--error"}},
		"xargs":            {short: "IEdLnPsa", long: []string{"--delimiter", "--eof", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--arg-file", "--process-slot-var"}},
		"setsid":           {},
		"unbuffer":         {},
		"busybox":          {},
		"toybox":           {},
		"chronic":          {},
		"flock":            {short: "wE", long: []string{"--timeout", "--conflict-exit-code"}, operands: 1},
		"strace":           {short: "abeEIoOpPsSuUX"},
		"ltrace":           {short: "aADeFlnopsuwx"},
		"valgrind":         {},
		"fakeroot":         {short: "lsi", long: []string{"--lib", "--faked"}},
		"faketime":         {short: "f", operands: 1},
		"chroot":           {long: []string{"--userspec", "--groups"}, operands: 1},
		"unshare":          {short: "SGRw", long: []string{"--setuid", "--setgid", "--root", "--wd"}},
		"nsenter":          {short: "tSG", long: []string{"--target", "--setuid", "--setgid"}},
		"systemd-run":      {short: "puEMH", long: []string{"--unit", "--property", "--setenv", "--uid", "--gid", "--nice", "--working-directory", "--description", "--slice", "--machine", "--host"}},
		"cpulimit":         {short: "lpe", long: []string{"--limit", "--pid", "--exe"}},
		"proxychains":      {short: "f"},
		"proxychains4":     {short: "f"},
		"torsocks":         {short: "upaP"},
		"firejail":         {},
		"dbus-run-session": {long: []string{"--config-file", "--dbus-daemon"}},
		"xvfb-run":         {short: "efnspw", long: []string{"--error-file", "--auth-file", "--server-num", "--server-args", "--xauth-protocol", "--wait"}},
		"catchsegv":        {},
		"caffeinate":       {short: "tw"},
		"prlimit":          {short: "po", long: []string{"--pid", "--output"}},
		"setpriv": {long: []string{"--ruid", "--euid", "--reuid", "--rgid", "--egid", "--regid", "--groups", "--inh-caps",
			"--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label", "--apparmor-profile",
			"--landlock-access", "--landlock-rule"}},
	}
}

// Unwrap drops what runs a command on another's behalf (variable
// assignments, sudo, env, nice, timeout, nohup, xargs…) so that rules see
// the command itself. `command -v` and `-V` only look a name up, so they
// unwrap to nothing.
func Unwrap(argv []string) []string {
	words := make([]Word, len(argv))
	for i, a := range argv {
		words[i] = Word{Text: a}
	}
	return texts(unwrap(words))
}

// unwrap is Unwrap on words.
func unwrap(argv []Word) []Word {
	for {
		next, _, ok := unwrapOnce(argv)
		if !ok {
			return argv
		}
		argv = next
	}
}

// unwrapOnce drops one wrapper or assignment, if argv starts with one,
// and returns the variable assignments it dropped. An opaque word where
// a wrapper's options, operands or env's assignments are expected ends
// the unwrapping there: it may be the program, or shift which word is.
func unwrapOnce(argv []Word) (next, assigns []Word, ok bool) {
	if len(argv) == 0 || argv[0].Opaque {
		return argv, nil, false
	}
	if isAssignment(argv[0].Text) {
		return argv[1:], argv[:1], true
	}
	name := path.Base(argv[0].Text)
	wr, ok := wrappers()[name]
	if !ok {
		if rest, ok := runnerCommand(argv); ok {
			return rest, nil, true
		}
		return argv, nil, false
	}
	if name == "command" && slices.ContainsFunc(argv[1:], func(a Word) bool { return a.Text == "-v" || a.Text == "-V" }) {
		return nil, nil, true
	}
	rest, split := skipOptions(argv[1:], wr)
	rest = append(split, rest...)
	if name == "xargs" {
		if repl := xargsReplace(argv[1:]); repl != "" {
			rest = replaced(rest, repl)
		}
	}
	if name == "env" {
		// A lone "-" is -i; options may follow it.
		for len(rest) > 0 && rest[0].Text == "-" && !rest[0].Opaque {
			var more []Word
			rest, more = skipOptions(rest[1:], wr)
			rest = append(more, rest...)
		}
	}
	if name == "env" || name == "sudo" || name == "doas" {
		for len(rest) > 0 && isEnvAssignment(rest[0]) {
			assigns = append(assigns, rest[0])
			rest = rest[1:]
		}
	}
	for i := 0; i < wr.operands && len(rest) > 0 && !rest[0].Opaque; i++ {
		rest = rest[1:]
	}
	return rest, assigns, true
}

// skipOptions drops a wrapper's leading options and returns the rest,
// plus the words of env's -S string, which env splits into arguments
// (one opaque word when the string is).
func skipOptions(args []Word, wr wrapper) (rest, split []Word) {
	for len(args) > 0 && !args[0].Opaque && len(args[0].Text) > 1 && args[0].Text[0] == '-' {
		a := args[0].Text
		args = args[1:]
		if a == "--" {
			break
		}
		var value Word
		hasValue := false
		if strings.HasPrefix(a, "--") {
			name, v, inline := strings.Cut(a, "=")
			name, known := longOption(name, wr.long)
			if known {
				value, hasValue = Word{Text: v}, true
				if !inline && len(args) > 0 {
					value, args = args[0], args[1:]
				}
			}
			if name == "--split-string" && hasValue {
				split = append(split, splitWords(value)...)
			}
			continue
		}
		for i := 1; i < len(a); i++ {
			if strings.IndexByte(wr.short, a[i]) < 0 {
				continue
			}
			value = Word{Text: a[i+1:]}
			if value.Text == "" && len(args) > 0 {
				value, args = args[0], args[1:]
			}
			if a[i] == 'S' {
				split = append(split, splitWords(value)...)
			}
			break
		}
	}
	return args, split
}

// longOption is the option of list that name (a --long option, before
// any "=") stands for as GNU's getopt reads it: itself, or the option it
// abbreviates (env --split for --split-string). Read as one of them when
// it abbreviates several (getopt refuses it): taking a value is the
// reading that hides no command.
func longOption(name string, list []string) (string, bool) {
	if slices.Contains(list, name) {
		return name, true
	}
	if len(name) <= len("--") || !strings.HasPrefix(name, "--") {
		return "", false
	}
	for _, o := range list {
		if strings.HasPrefix(o, name) {
			return o, true
		}
	}
	return "", false
}

// splitWords splits env -S's string at blanks.
func splitWords(value Word) []Word {
	if value.Opaque {
		return []Word{value}
	}
	var out []Word
	for _, f := range strings.Fields(value.Text) {
		out = append(out, Word{Text: f})
	}
	return out
}

// RunsCommands reports whether a program runs a command or a script its
// arguments name: a wrapper (sudo, env, timeout, xargs…), a shell, eval,
// source, trap, alias, a runner (watch, parallel) or find. A rule that
// allows such a program by its name alone allows anything.
func RunsCommands(program string) bool {
	name := path.Base(program)
	_, wraps := wrappers()[name]
	_, runs := runners()[name]
	_, tool := toolRunners()[name][""]
	return wraps || runs || tool || slices.Contains(shells, name) || slices.Contains(scriptTakers, name)
}

// scriptTakers run a script from their arguments without being shells.
var scriptTakers = []string{"eval", "source", ".", "trap", "alias", "find", "flock", "sg", "compgen", "complete", "mapfile", "readarray"}

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
var shells = []string{"sh", "bash", "rbash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "csh", "tcsh", "hush", "posh", "su", "runuser", "script"}

// isShell reports whether an unwrapped argv starts a shell.
func isShell(argv []Word) bool {
	return len(argv) > 0 && slices.Contains(shells, path.Base(argv[0].Text))
}

// joined is words joined by spaces, opaque when any of them is.
func joined(words []Word) Word {
	out := Word{Text: strings.Join(texts(words), " ")}
	out.Opaque = slices.ContainsFunc(words, func(w Word) bool { return w.Opaque })
	return out
}
