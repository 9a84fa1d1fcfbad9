package shell

import (
	"path"
	"slices"
	"strings"
	"sync"
)

// gitCommandKeys are git settings whose value is a command git runs
// (through a shell, or as a program): `git -c core.pager='rm x' log`
// runs rm. A "*" stands for a subsection (diff.<driver>.textconv).
var gitCommandKeys = []string{
	"core.pager", "core.editor", "core.sshcommand", "core.fsmonitor", "core.askpass", "core.gitproxy",
	"diff.external", "sequence.editor", "credential.helper", "credential.*.helper", "gpg.program",
	"gpg.*.program", "pager.*", "diff.*.textconv", "diff.*.command", "merge.*.driver", "filter.*.clean",
	"filter.*.smudge", "filter.*.process", "uploadpack.packobjectshook", "remote.*.uploadpack",
	"remote.*.receivepack", "difftool.*.cmd", "mergetool.*.cmd", "man.*.cmd", "browser.*.cmd", "alias.*",
	"gpg.*.defaultkeycommand", "core.alternaterefscommand", "trailer.*.command", "trailer.*.cmd",
	"sendemail.tocmd", "sendemail.cccmd", "sendemail.headercmd", "sendemail.*.tocmd", "sendemail.*.cccmd",
	"sendemail.*.headercmd", "imap.tunnel", "mergetool.*.path", "difftool.*.path", "browser.*.path", "man.*.path",
}

// gitUnseenKeys are git settings that make git run commands from
// somewhere the command line does not show: hooks from another folder,
// settings from another file, transports that run programs.
var gitUnseenKeys = []string{"core.hookspath", "include.path", "includeif.*.path", "protocol.*"}

// gitCommandOptions are subcommand options whose value is a command:
// fetch --upload-pack, push --receive-pack, rebase --exec, difftool
// --extcmd, filter-branch's filters. Short forms are per subcommand.
var gitCommandOptions = []string{
	"--upload-pack", "--receive-pack", "--exec", "--extcmd", "--tree-filter", "--index-filter",
	"--msg-filter", "--env-filter", "--commit-filter", "--parent-filter", "--tag-name-filter",
	"--to-cmd", "--cc-cmd", "--header-cmd", "--access-hook", "--httpd", "--browser",
}

// gitAttachedCommandOptions take a command only written in the same word
// (grep -O'less' or --open-files-in-pager=less; alone, the default).
var gitAttachedCommandOptions = []string{"--open-files-in-pager"}

// gitShortOption is a subcommand's short command option.
type gitShortOption struct {
	letter byte
	// attachedOnly: the value is never the next word.
	attachedOnly bool
}

// gitShortCommandOptions are the short forms of the command options.
func gitShortCommandOptions() map[string]gitShortOption {
	gitShortCommandOptionsOnce.Do(func() { gitShortCommandOptionsValue = buildGitShortCommandOptions() })
	return gitShortCommandOptionsValue
}

// gitShortCommandOptionsOnce and gitShortCommandOptionsValue hold the table, built on first use
// (a zero sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	gitShortCommandOptionsOnce  sync.Once
	gitShortCommandOptionsValue map[string]gitShortOption
)

// buildGitShortCommandOptions builds the table.
func buildGitShortCommandOptions() map[string]gitShortOption {
	return map[string]gitShortOption{"clone": {letter: 'u'}, "rebase": {letter: 'x'}, "difftool": {letter: 'x'}, "grep": {letter: 'O', attachedOnly: true}}
}

// gitScripts are the commands a git command line runs besides git: the
// values of -c settings that hold commands (opaque when they may come
// from elsewhere), the command options of its subcommand, and what
// submodule foreach and bisect run run.
func gitScripts(argv []Word) []Word {
	if len(argv) == 0 || path.Base(argv[0].Text) != "git" {
		return nil
	}
	sub, _ := Subcommand(argv)
	var out []Word
	for i := 1; i < sub; i++ {
		a := argv[i].Text
		switch {
		case a == "-c" && i+1 < sub:
			i++
			out = append(out, gitSetting(argv[i], false)...)
		case strings.HasPrefix(a, "--config-env="):
			out = append(out, gitSetting(Word{Text: strings.TrimPrefix(a, "--config-env="), Opaque: argv[i].Opaque}, true)...)
		case a == "--config-env" && i+1 < sub:
			i++
			out = append(out, gitSetting(argv[i], true)...)
		}
	}
	if sub >= len(argv) {
		return out
	}
	name, rest := argv[sub].Text, argv[sub+1:]
	switch {
	case name == "submodule" && len(rest) > 0 && rest[0].Text == "foreach":
		rest = rest[1:]
		for len(rest) > 0 && strings.HasPrefix(rest[0].Text, "-") && !rest[0].Opaque {
			rest = rest[1:]
		}
		if len(rest) > 0 {
			out = append(out, joined(rest))
		}
		return out
	case name == "bisect" && len(rest) > 1 && rest[0].Text == "run":
		return append(out, joined(rest[1:]))
	}
	return append(out, gitOptionScripts(rest, gitShortCommandOptions()[name])...)
}

// gitSetting is what one -c key=value runs: the value of a command
// setting (an alias's or a credential helper's after its "!"), or an opaque script when the value
// is unknown (--config-env names an environment variable) or the
// setting brings in what the line does not show.
func gitSetting(setting Word, fromEnv bool) []Word {
	key, value, _ := strings.Cut(setting.Text, "=")
	key = strings.ToLower(key)
	if unknownKey(key, setting.Opaque) || matchesAny(gitUnseenKeys, key) {
		return []Word{{Opaque: true}} // the key itself is unknown
	}
	if !matchesAny(gitCommandKeys, key) {
		return nil
	}
	if fromEnv || setting.Opaque {
		return []Word{{Opaque: true}}
	}
	switch {
	case strings.HasPrefix(key, "alias."):
		script, ok := strings.CutPrefix(value, "!")
		if !ok {
			return nil // another git command: Subcommand says it is unknown
		}
		value = script
	case matchesAny(gitCredentialHelperKeys, key):
		value = strings.TrimPrefix(value, "!") // a shell snippet after its "!"
	}
	return []Word{{Text: value}}
}

// gitCredentialHelperKeys name credential helpers, which git runs as a
// shell snippet when they start with "!" (credential.helper='!rm x').
var gitCredentialHelperKeys = []string{"credential.helper", "credential.*.helper"}

// gitOptionScripts are the values of a subcommand's command options.
func gitOptionScripts(args []Word, short gitShortOption) []Word {
	var out []Word
	for i := 0; i < len(args); i++ {
		a := args[i].Text
		if a == "--" {
			break
		}
		name, value, inline := strings.Cut(a, "=")
		switch {
		case inline && (isGitCommandOption(name, gitCommandOptions) || isGitCommandOption(name, gitAttachedCommandOptions)):
			out = append(out, Word{Text: value, Opaque: args[i].Opaque})
		case isGitCommandOption(name, gitCommandOptions) && i+1 < len(args):
			i++
			out = append(out, args[i])
		case short.letter != 0 && len(a) >= 2 && a[0] == '-' && a[1] == short.letter:
			if len(a) > 2 {
				out = append(out, Word{Text: a[2:], Opaque: args[i].Opaque})
			} else if !short.attachedOnly && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
		}
	}
	return out
}

// gitWholeOptions are options of their own that would read as an
// abbreviated command option: log --cc, send-email --to, rev-list
// --header.
var gitWholeOptions = []string{"--cc", "--to", "--header"}

// isGitCommandOption says whether name is one of options, whole or
// abbreviated as git's option parser takes it (fetch --upload=cmd).
func isGitCommandOption(name string, options []string) bool {
	if slices.Contains(gitWholeOptions, name) {
		return false
	}
	_, ok := longOption(name, options)
	return ok
}

// matchesAny reports whether name matches one of the patterns, where
// one "*" stands for any run of characters (a subsection may hold dots
// and slashes).
func matchesAny(patterns []string, name string) bool {
	for _, p := range patterns {
		prefix, suffix, star := strings.Cut(p, "*")
		if !star && name == p || star && len(name) >= len(prefix)+len(suffix) && strings.HasPrefix(name, prefix) && strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}
