package shell

import (
	"path"
	"strings"
	"sync"
)

// runners take their command as words they join and hand to a shell:
// `watch 'rm x'`, `parallel 'rm {}' ::: a b`. The table holds their
// options that take a value.
func runners() map[string]wrapper {
	runnersOnce.Do(func() { runnersValue = buildRunners() })
	return runnersValue
}

// runnersOnce and runnersValue hold the table, built on first use
// (a zero sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	runnersOnce  sync.Once
	runnersValue map[string]wrapper
)

// buildRunners builds the table.
func buildRunners() map[string]wrapper {
	return map[string]wrapper{
		"watch":    {short: "nq", long: []string{"--interval", "--equexit"}},
		"parallel": {short: "jSadIEnNLPsC", long: []string{"--jobs", "--sshlogin", "--arg-file", "--delimiter", "--max-args", "--max-lines", "--max-procs", "--joblog", "--results", "--tmpdir", "--colsep", "--timeout"}},
	}
}

// parallelSeparators start parallel's argument lists.
var parallelSeparators = []string{":::", "::::", ":::+", "::::+"}

// innerScripts lists the scripts a command (wrappers already dropped)
// runs from strings: a shell's -c operand (su's --command, script -c),
// flock -c, eval's arguments, watch's and parallel's command, trap's
// action, an alias's value, which the shell runs when the alias is
// used, and an awk or sed program that runs commands (unknown ones). A script that is not literal is returned opaque, and one with no
// text at all (parallel reading its commands from its input) is opaque
// and empty.
func innerScripts(argv []Word) []Word {
	if len(argv) == 0 {
		return nil
	}
	name, args := path.Base(argv[0].Text), argv[1:]
	if scripts := runnerScripts(argv); len(scripts) > 0 {
		return scripts
	}
	if scripts := optionScripts(argv); len(scripts) > 0 {
		return scripts
	}
	if scripts := textProgramScripts(argv); len(scripts) > 0 {
		return scripts
	}
	if scripts := interactiveScripts(argv); len(scripts) > 0 {
		return scripts
	}
	switch {
	case name == "compgen" || name == "complete" || name == "mapfile" || name == "readarray":
		// -C runs a command: per completion, or per lines read.
		return optionValues(args, "-C")
	case name == "sg":
		// sg [-] GROUP [-c] COMMAND
		if len(args) > 0 && args[0].Text == "-" {
			args = args[1:]
		}
		if len(args) > 1 && args[1].Text == "-c" {
			args = args[1:]
		}
		if len(args) > 1 {
			return []Word{joined(args[1:])}
		}
	case name == "eval" || name == "source" || name == ".":
		// Both take one "--" before their operands.
		if len(args) > 0 && args[0].Text == "--" && !args[0].Opaque {
			args = args[1:]
		}
		switch {
		case len(args) == 0:
		case name == "eval":
			return []Word{joined(args)}
		case unseenFile(args[0]):
			return []Word{{Opaque: true}}
		}
	case name == "watch":
		if rest, _ := skipOptions(args, runners()[name]); len(rest) > 0 {
			return []Word{joined(rest)}
		}
	case name == "parallel":
		return parallelScripts(args)
	case name == "trap":
		return trapScript(args)
	case name == "alias":
		var out []Word
		for _, a := range args {
			if _, value, ok := strings.Cut(a.Text, "="); ok {
				out = append(out, Word{Text: value, Opaque: a.Opaque})
			}
		}
		return out
	case name == "hash":
		// hash -p /bin/rm ls: ls now runs /bin/rm.
		for i, a := range args {
			if a.Text == "-p" && i+1 < len(args) {
				return []Word{args[i+1]}
			}
		}
	case name == "flock" || isShell(argv):
		if script, ok := dashC(args); ok {
			return []Word{script}
		}
		if file, ok := scriptFile(args); ok && unseenFile(file) {
			return []Word{{Opaque: true}}
		}
	}
	return nil
}

// optionValues are the values of a short option among args, given
// apart (-C cmd) or attached (-Ccmd).
func optionValues(args []Word, option string) []Word {
	var out []Word
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.Text == option && i+1 < len(args):
			i++
			out = append(out, args[i])
		case strings.HasPrefix(a.Text, option) && len(a.Text) > len(option):
			out = append(out, Word{Text: a.Text[len(option):], Opaque: a.Opaque})
		}
	}
	return out
}

// unseenFile reports whether a script file operand is one whose text
// the command line does not show: a process substitution, a variable,
// or the command's own input (/dev/stdin, a /dev/fd descriptor).
func unseenFile(file Word) bool {
	p := path.Clean(file.Text)
	return file.Opaque || p == "/dev/stdin" || strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/self/fd/")
}

// scriptFile is the script file a shell runs: its first operand.
func scriptFile(args []Word) (Word, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.Opaque:
			return a, true
		case a.Text == "-o" || a.Text == "+o" || a.Text == "-O" || a.Text == "+O":
			i++
		case a.Text == "-s":
			return Word{}, false
		case a.Text == "--":
			if i+1 < len(args) {
				return args[i+1], true
			}
			return Word{}, false
		case !strings.HasPrefix(a.Text, "-") && !strings.HasPrefix(a.Text, "+"):
			return a, true
		}
	}
	return Word{}, false
}

// dashC finds the operand of -c (alone or in a cluster such as -lc) or
// of --command.
func dashC(args []Word) (Word, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i].Text
		switch {
		case isAbbreviation(strings.SplitN(a, "=", 2)[0], "--command"):
			if _, v, ok := strings.Cut(a, "="); ok {
				return Word{Text: v, Opaque: args[i].Opaque}, true
			}
			if i+1 < len(args) {
				return args[i+1], true
			}
		case a == "-o" || a == "+o" || a == "-O" || a == "+O":
			i++ // the option's name
		case len(a) > 1 && (a[0] == '-' || a[0] == '+') && a[1] != '-' && strings.ContainsRune(a, 'c'):
			for _, b := range args[i+1:] {
				if !strings.HasPrefix(b.Text, "-") || b.Opaque {
					return b, true
				}
			}
			// No operand: one may yet be appended (xargs sh -c).
			return Word{Opaque: true}, true
		}
	}
	return Word{}, false
}

// parallelScripts are what GNU parallel runs: its command joined into
// one script, or, without a command, each argument as a script; with
// neither, the lines of its input, which are unknown.
func parallelScripts(args []Word) []Word {
	rest, _ := skipOptions(args, runners()["parallel"])
	i := 0
	for i < len(rest) && !isParallelSeparator(rest[i]) {
		i++
	}
	if i > 0 {
		script := joined(rest[:i])
		// A replacement string ({}, {1}, {.}) as the program runs the
		// arguments themselves.
		script.Opaque = script.Opaque || strings.Contains(rest[0].Text, "{")
		return []Word{script}
	}
	var out []Word
	for _, a := range rest {
		if !isParallelSeparator(a) {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return []Word{{Opaque: true}}
	}
	return out
}

// isParallelSeparator reports whether a word starts one of parallel's
// argument lists.
func isParallelSeparator(w Word) bool {
	for _, sep := range parallelSeparators {
		if w.Text == sep && !w.Opaque {
			return true
		}
	}
	return false
}

// trapScript is trap's action: its first operand when a signal follows.
func trapScript(args []Word) []Word {
	for len(args) > 0 && !args[0].Opaque && strings.HasPrefix(args[0].Text, "-") && args[0].Text != "-" {
		if args[0].Text == "--" {
			args = args[1:]
			break
		}
		args = args[1:]
	}
	if len(args) < 2 || args[0].Text == "-" {
		return nil
	}
	return args[:1]
}

// findExecs lists the commands find runs with -exec, -execdir, -ok and
// -okdir, each up to its ";" or "+".
func findExecs(argv []Word) [][]Word {
	if path.Base(argv[0].Text) != "find" {
		return nil
	}
	var out [][]Word
	for i := 1; i < len(argv); i++ {
		switch argv[i].Text {
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(argv) && argv[j].Text != ";" && argv[j].Text != "+" {
				j++
			}
			if j > i+1 {
				out = append(out, replaced(argv[i+1:j], "{}"))
			}
			i = j
		}
	}
	return out
}

// replaced marks opaque the words holding a runner's replacement string
// (find's {}, xargs -I's), which become the input's text when it runs.
func replaced(words []Word, repl string) []Word {
	out := make([]Word, len(words))
	for i, w := range words {
		out[i] = w
		if strings.Contains(w.Text, repl) {
			out[i].Opaque = true
		}
	}
	return out
}

// xargsReplace is the replacement string of xargs -I, -i or --replace
// among its options, or "".
func xargsReplace(args []Word) string {
	for i := 0; i < len(args) && strings.HasPrefix(args[i].Text, "-"); i++ {
		a := args[i].Text
		switch {
		case a == "--":
			return ""
		case a == "-I" && i+1 < len(args):
			return args[i+1].Text
		case strings.HasPrefix(a, "-I"):
			return a[2:]
		case a == "-i" || a == "--replace":
			return "{}"
		case strings.HasPrefix(a, "-i"):
			return a[2:]
		case strings.HasPrefix(a, "--replace="):
			return strings.TrimPrefix(a, "--replace=")
		}
	}
	return ""
}
