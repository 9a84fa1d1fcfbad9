package shell

import (
	"path"
	"slices"
	"strings"
	"sync"
)

// globalOptions are, for programs whose first operand is a subcommand
// (git push, docker run), the options before it that take the next word
// as their value. Other options before the subcommand are single words.
func globalOptions() map[string][]string {
	globalOptionsOnce.Do(func() { globalOptionsValue = buildGlobalOptions() })
	return globalOptionsValue
}

// globalOptionsOnce and globalOptionsValue hold the table, built on first use
// (a zero sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	globalOptionsOnce  sync.Once
	globalOptionsValue map[string][]string
)

// buildGlobalOptions builds the table.
func buildGlobalOptions() map[string][]string {
	return map[string][]string{
		"git":     {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--list-cmds", "--attr-source"},
		"go":      {"-C"},
		"docker":  {"-c", "--context", "-H", "--host", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"},
		"podman":  {"-c", "--connection", "--url", "--identity", "--root", "--runroot", "--storage-driver", "--log-level", "--config", "--module"},
		"kubectl": {"-n", "--namespace", "--context", "--kubeconfig", "-s", "--server", "--cluster", "--user", "--as", "--as-group", "--token"},
		"helm":    {"-n", "--namespace", "--kube-context", "--kubeconfig", "--registry-config", "--repository-config"},
		"cargo":   {"-C", "--config", "-Z", "--color"},
		"npm":     {"--prefix", "-w", "--workspace"},
		"uv":      {"--directory", "--project", "--cache-dir", "--config-file", "--color"},
		"poetry":  {"-C", "--directory", "-P", "--project"},
		"pnpm":    {"-C", "--dir", "-F", "--filter"},
		"yarn":    {"--cwd"},
		"mise":    {"-C", "--cd", "-E", "--env"},
		"hatch":   {"-e", "--env", "-p", "--project", "--data-dir", "--cache-dir", "--config"},
		"nix":     {"--extra-experimental-features", "--experimental-features"},
	}
}

// Subcommand finds the subcommand of a program that takes global options
// before it: argv[i] is the subcommand, so `git -C . push` reads as
// `git push`; i is len(argv) when there is none, and 1 for programs
// without global options. known is false when an option may rename the
// subcommand: git's -c alias.x=… (or include.path, or a value only known
// when the shell runs) defines commands of its own.
func Subcommand(argv []Word) (i int, known bool) {
	if len(argv) == 0 {
		return 0, true
	}
	name := path.Base(argv[0].Text)
	takesValue, ok := globalOptions()[name]
	if !ok {
		return 1, true
	}
	known = true
	for i = 1; i < len(argv); i++ {
		a := argv[i]
		if a.Opaque || !strings.HasPrefix(a.Text, "-") && !(name == "cargo" && strings.HasPrefix(a.Text, "+")) {
			return i, known
		}
		if a.Text == "--" {
			return i + 1, known
		}
		option, value, inline := strings.Cut(a.Text, "=")
		opaque := false
		if !inline && slices.Contains(takesValue, option) && i+1 < len(argv) {
			i++
			value, opaque = argv[i].Text, argv[i].Opaque
		}
		if name == "git" && (option == "-c" || option == "--config-env") && definesCommands(value, opaque) {
			known = false
		}
	}
	return i, known
}

// definesCommands reports whether a git config setting may define
// commands: an alias, an included file that may hold aliases, or a key
// only known when the shell runs.
func definesCommands(setting string, opaque bool) bool {
	key, _, _ := strings.Cut(strings.ToLower(setting), "=")
	return unknownKey(key, opaque) ||
		strings.HasPrefix(key, "alias.") || strings.HasPrefix(key, "include.") || strings.HasPrefix(key, "includeif.")
}

// unknownKey reports whether the key of a setting word that is opaque
// may itself be only known when the shell runs (-c "$K=v"), rather than
// only its value (-c "user.email=$E").
func unknownKey(key string, opaque bool) bool {
	return opaque && strings.ContainsAny(key, "$`*?[{(")
}
