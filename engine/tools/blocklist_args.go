package tools

import (
	"os"
	"path"
	"slices"
	"strings"
)

// harmlessDevices are device files that dd may write to.
var harmlessDevices = []string{"/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/tty"}

// hasFlag reports whether args (up to "--") hold one of the long flags, or
// a short-flag cluster such as -rf or -fR with one of the short letters.
func hasFlag(args []string, short string, long ...string) bool {
	for _, a := range args {
		switch {
		case a == "--":
			return false
		case slices.Contains(long, a):
			return true
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], short):
			return true
		}
	}
	return false
}

// operands are the arguments that are not options; after "--" all are.
func operands(args []string) []string {
	var out []string
	for i, a := range args {
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}

// isRoot reports whether an operand names the filesystem root or all of it.
func isRoot(op string) bool {
	if !strings.HasPrefix(op, "/") {
		return false
	}
	p := path.Clean(op)
	return p == "/" || p == "/*"
}

// isHome reports whether an operand names the home directory or all of it.
func isHome(op string) bool {
	homes := []string{"~", "$HOME", "${HOME}"}
	if dir, err := os.UserHomeDir(); err == nil && dir != "/" {
		homes = append(homes, path.Clean(dir))
	}
	for _, home := range homes {
		if op == home || strings.HasPrefix(op, home+"/") {
			rest := path.Clean("/" + op[len(home):])
			return rest == "/" || rest == "/*"
		}
	}
	return false
}

// isDevice reports whether a dd output file is a device worth refusing.
func isDevice(file string) bool {
	return strings.HasPrefix(file, "/dev/") && !slices.Contains(harmlessDevices, path.Clean(file))
}

// isForcePush matches git push with --force, -f (alone or in a cluster),
// --force-with-lease or a +refspec, after git's own global options.
func isForcePush(name string, args []string) bool {
	if name != "git" {
		return false
	}
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		switch args[i] {
		case "-C", "-c", "--git-dir", "--work-tree", "--namespace":
			i++
		}
		i++
	}
	if i >= len(args) || args[i] != "push" {
		return false
	}
	return slices.ContainsFunc(args[i+1:], func(a string) bool {
		return a == "--force" || strings.HasPrefix(a, "--force-with-lease") ||
			(len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'f')) ||
			(len(a) > 1 && a[0] == '+')
	})
}

// stripPrefixes drops what runs a command on another's behalf (variable
// assignments, sudo, env, nice, timeout, nohup…) so the rules see the
// command itself.
func stripPrefixes(argv []string) []string {
	for len(argv) > 0 {
		if isAssignment(argv[0]) {
			argv = argv[1:]
			continue
		}
		switch path.Base(argv[0]) {
		case "sudo", "doas":
			argv = skipOptions(argv[1:], "ugCDhprtUT")
		case "env":
			argv = skipOptions(argv[1:], "uC")
		case "nice", "ionice":
			argv = skipOptions(argv[1:], "ncp")
		case "timeout":
			if argv = skipOptions(argv[1:], "sk"); len(argv) > 0 {
				argv = argv[1:] // the duration
			}
		case "nohup", "time", "command", "exec", "builtin", "stdbuf":
			argv = skipOptions(argv[1:], "")
		default:
			return argv
		}
	}
	return argv
}

// skipOptions drops leading options; the letters in valued take the next
// word as their value when given alone (-u root).
func skipOptions(args []string, valued string) []string {
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		if len(a) == 2 && strings.IndexByte(valued, a[1]) >= 0 && len(args) > 0 {
			args = args[1:]
		}
	}
	return args
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

// innerScript returns the script a command runs from a string: the
// argument of a shell's (or su's) -c, or eval's arguments.
func innerScript(name string, args []string) (string, bool) {
	switch name {
	case "eval":
		return strings.Join(args, " "), len(args) > 0
	case "sh", "bash", "zsh", "dash", "ksh", "su":
		for i, a := range args {
			if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'c') {
				for _, b := range args[i+1:] {
					if !strings.HasPrefix(b, "-") {
						return b, true
					}
				}
			}
		}
	}
	return "", false
}
