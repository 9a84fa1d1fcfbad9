package shell

import (
	"path"
	"slices"
	"strings"
	"sync"
)

// Package managers and environment tools run a command a line gives
// them: `uv run pytest`, `bundle exec rake`, `npm exec -- eslint`,
// `nix develop -c make`, or a script in a string (`npx -c 'make x'`,
// `nix-shell --run 'make x'`). Rules see through them as through sudo.

// toolRunner is how one tool, or one subcommand of it, runs a command.
type toolRunner struct {
	// options are the tool's (or subcommand's) options that take a value.
	options wrapper
	// after, when set, are the words the command follows; without one of
	// them nothing runs from the line (`nix develop` alone opens a shell).
	after []string
	// scripts are the options whose value is a script handed to a shell.
	scripts []string
	// joined: the words left are joined into one script (watchexec).
	joined bool
	// shellFlag is a flag that makes the first operand a script (entr -s).
	shellFlag string
}

// uvRunOptions are uv run's options that take a value.
var uvRunOptions = []string{
	"--with", "--with-editable", "--with-requirements", "--extra", "--group", "--no-group", "--only-group",
	"--package", "--python", "--env-file", "--index", "--default-index", "--index-url", "--extra-index-url",
	"--find-links", "--upgrade-package", "--reinstall-package", "--refresh-package", "--no-build-package",
	"--no-binary-package", "--index-strategy", "--keyring-provider", "--resolution", "--prerelease",
	"--fork-strategy", "--exclude-newer", "--link-mode", "--config-setting", "--python-platform",
	"--directory", "--project", "--cache-dir", "--config-file", "--color", "--allow-insecure-host",
}

var (
	plainRunner = toolRunner{}
	npmExec     = toolRunner{options: wrapper{short: "pcw", long: []string{"--package", "--call", "--workspace"}},
		scripts: []string{"-c", "--call"}}
	condaRun = toolRunner{options: wrapper{short: "np", long: []string{"--name", "--prefix", "--cwd"}}}
	miseExec = toolRunner{options: wrapper{short: "cCEj", long: []string{"--command", "--cd", "--env", "--jobs"}},
		after: []string{"--"}, scripts: []string{"-c", "--command"}}
	nixShell = toolRunner{after: []string{"-c", "--command"}}
	perfRun  = toolRunner{options: wrapper{short: "eoptCrxGF", long: []string{"--event", "--output", "--pid", "--tid",
		"--cpu", "--repeat", "--field-separator", "--cgroup", "--freq", "--call-graph"}}}
)

// toolRunners are the tools by name, then by subcommand ("" for a tool
// that has none).
func toolRunners() map[string]map[string]toolRunner {
	toolRunnersOnce.Do(func() { toolRunnersValue = buildToolRunners() })
	return toolRunnersValue
}

// toolRunnersOnce and toolRunnersValue hold the table, built on first use
// (a zero sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	toolRunnersOnce  sync.Once
	toolRunnersValue map[string]map[string]toolRunner
)

// buildToolRunners builds the table.
func buildToolRunners() map[string]map[string]toolRunner {
	return map[string]map[string]toolRunner{
		"uv":         {"run": {options: wrapper{short: "pPfiCw", long: uvRunOptions}}},
		"poetry":     {"run": plainRunner},
		"pipenv":     {"run": plainRunner},
		"pdm":        {"run": {options: wrapper{short: "p", long: []string{"--project", "--venv"}}}},
		"rye":        {"run": plainRunner},
		"hatch":      {"run": plainRunner},
		"pixi":       {"run": {options: wrapper{short: "e", long: []string{"--manifest-path", "--environment"}}}},
		"conda":      {"run": condaRun},
		"mamba":      {"run": condaRun},
		"micromamba": {"run": condaRun},
		"npm":        {"exec": npmExec, "x": npmExec},
		"npx":        {"": npmExec},
		"pnpm":       {"exec": {options: wrapper{short: "C", long: []string{"--dir", "--filter"}}}},
		"yarn":       {"exec": plainRunner},
		"bundle":     {"exec": {options: wrapper{long: []string{"--gemfile"}}}},
		"pyenv":      {"exec": plainRunner},
		"rbenv":      {"exec": plainRunner},
		"nodenv":     {"exec": plainRunner},
		"goenv":      {"exec": plainRunner},
		"asdf":       {"exec": plainRunner},
		"mise":       {"exec": miseExec, "x": miseExec},
		"direnv":     {"exec": {options: wrapper{operands: 1}}},
		"devbox":     {"run": {options: wrapper{short: "ce", long: []string{"--config", "--env", "--env-file"}}}},
		"nix":        {"develop": nixShell, "shell": nixShell},
		"gdb":        {"": {after: []string{"--args"}}},
		"perf":       {"stat": perfRun, "record": perfRun, "trace": perfRun},
		"nix-shell":  {"": {after: []string{}, scripts: []string{"--run", "--command"}}},
		"nodemon":    {"": {after: []string{}, scripts: []string{"--exec", "-x"}}},
		"entr":       {"": {shellFlag: "-s"}},
		"watchexec": {"": {joined: true, options: wrapper{short: "ewifdsEW", long: []string{"--exts", "--watch",
			"--ignore", "--filter", "--debounce", "--signal", "--env", "--shell", "--workdir", "--delay-run",
			"--poll", "--stop-signal", "--stop-timeout", "--on-busy-update", "--project-origin", "--emit-events-to"}}}},
	}
}

// RunsCommandsAfter reports whether a program's subcommand runs the
// command its next words give (uv run, bundle exec): a rule that allows
// the two words alone allows anything.
func RunsCommandsAfter(program, sub string) bool {
	_, ok := toolRunners()[path.Base(program)][sub]
	return ok && sub != ""
}

// runnerOf finds the runner for argv (wrappers already dropped) and the
// words after its subcommand, or reports there is none.
func runnerOf(argv []Word) (toolRunner, []Word, bool) {
	if len(argv) == 0 || argv[0].Opaque {
		return toolRunner{}, nil, false
	}
	subs, ok := toolRunners()[path.Base(argv[0].Text)]
	if !ok {
		return toolRunner{}, nil, false
	}
	if r, ok := subs[""]; ok {
		return r, argv[1:], true
	}
	sub, _ := Subcommand(argv)
	if sub >= len(argv) || argv[sub].Opaque {
		return toolRunner{}, nil, false
	}
	r, ok := subs[argv[sub].Text]
	return r, argv[sub+1:], ok
}

// runnerCommand is the command a runner runs from its words, when it
// runs one as words rather than as a script.
func runnerCommand(argv []Word) ([]Word, bool) {
	r, args, ok := runnerOf(argv)
	if !ok || r.joined || r.shellFlag != "" && slices.ContainsFunc(args, func(a Word) bool { return a.Text == r.shellFlag }) {
		return nil, false
	}
	if r.after != nil {
		for i, a := range args {
			if slices.Contains(r.after, a.Text) {
				return args[i+1:], true
			}
		}
		return nil, true
	}
	rest, _ := skipOptions(args, r.options)
	for i := 0; i < r.options.operands && len(rest) > 0 && !rest[0].Opaque; i++ {
		rest = rest[1:]
	}
	return rest, true
}

// runnerScripts are the scripts a runner hands to a shell: the values of
// its script options, its words joined, or its first operand after its
// shell flag.
func runnerScripts(argv []Word) []Word {
	r, args, ok := runnerOf(argv)
	if !ok {
		return nil
	}
	var out []Word
	for i := 0; i < len(args); i++ {
		name, value, inline := strings.Cut(args[i].Text, "=")
		if !slices.Contains(r.scripts, name) {
			continue
		}
		switch {
		case inline:
			out = append(out, Word{Text: value, Opaque: args[i].Opaque})
		case i+1 < len(args):
			i++
			out = append(out, args[i])
		}
	}
	if r.joined || r.shellFlag != "" {
		rest, _ := skipOptions(args, r.options)
		if len(rest) > 0 && r.joined {
			out = append(out, joined(rest))
		} else if len(rest) > 0 && slices.ContainsFunc(args, func(a Word) bool { return a.Text == r.shellFlag }) {
			out = append(out, rest[0])
		}
	}
	return out
}
