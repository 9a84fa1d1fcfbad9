package shell

import (
	"path"
	"strings"
	"sync"
)

// Some programs take a command as the value of an option and hand it to
// a shell: `tar -I 'cmd'`, `rsync -e 'cmd'`, `ssh -o ProxyCommand='cmd'`,
// `sort --compress-program=cmd`. commandOptions lists them by program;
// a value is taken apart (-Icmd, --opt=cmd) or as the next word.
func commandOptions() map[string][]string {
	commandOptionsOnce.Do(func() { commandOptionsValue = buildCommandOptions() })
	return commandOptionsValue
}

// commandOptionsOnce and commandOptionsValue hold the table, built on first use
// (a zero sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	commandOptionsOnce  sync.Once
	commandOptionsValue map[string][]string
)

// buildCommandOptions builds the table.
func buildCommandOptions() map[string][]string {
	return map[string][]string{
		"tar":   {"-I", "--use-compress-program", "--to-command", "--checkpoint-action", "-F", "--info-script", "--new-volume-script", "--rsh-command"},
		"rsync": {"-e", "--rsh", "--rsync-path"},
		"ssh":   {"-o"},
		"scp":   {"-o", "-S"},
		"sftp":  {"-o", "-S"},
		"zip":   {"-TT", "--unzip-command"},
		"sort":  {"--compress-program"},
		"split": {"--filter"},
		"man":   {"-P", "--pager"},
		// go's flags are one word long, with one dash or two.
		"go": {"-exec", "-toolexec", "-vettool"},
		// make runs recipes with SHELL, and --eval adds a rule.
		"make":  {"-E", "--eval", "SHELL="},
		"gmake": {"-E", "--eval", "SHELL="},
		"rg":    {"--pre"},
	}
}

// sshCommandKeys are the ssh settings (-o Key=value) that run a command.
var sshCommandKeys = []string{"proxycommand", "localcommand", "knownhostscommand"}

// optionScripts are the commands a program's options hand to a shell:
// an option as it is listed, a long one abbreviated as GNU's getopt
// takes it (--compress-prog=cmd, --to-comm cmd), a short one at the end
// of a bundle of flags (-cI cmd, -xIcmd), and tar's options of old
// (tar cIf cmd a.tar).
func optionScripts(argv []Word) []Word {
	if len(argv) == 0 {
		return nil
	}
	name := path.Base(argv[0].Text)
	options := commandOptions()[name]
	if len(options) == 0 {
		return nil
	}
	var out []Word
	add := func(opt string, value Word) {
		if script, ok := optionScript(name, opt, value); ok {
			out = append(out, script)
		}
	}
	i := 1
	if name == "tar" && len(argv) > 1 && !strings.HasPrefix(argv[1].Text, "-") {
		i = oldTarOptions(argv, add)
	}
	for ; i < len(argv); i++ {
		a := argv[i]
		if a.Text == "--" {
			break
		}
		if name == "go" {
			a = goFlag(a)
		}
		for _, opt := range options {
			var value Word
			long, inline, hasInline := strings.Cut(a.Text, "=")
			switch {
			case strings.HasPrefix(opt, "--") && isAbbreviation(long, opt):
				if hasInline {
					value = Word{Text: inline, Opaque: a.Opaque}
				} else if i+1 < len(argv) {
					i++
					value = argv[i]
				} else {
					continue
				}
			case strings.HasPrefix(opt, "--"):
				continue
			case a.Text == opt && i+1 < len(argv):
				i++
				value = argv[i]
			case strings.HasPrefix(a.Text, opt) && len(a.Text) > len(opt):
				value = Word{Text: a.Text[len(opt):], Opaque: a.Opaque}
			case len(opt) == 2 && isFlagBundle(a.Text) && strings.Contains(a.Text[1:], opt[1:]):
				// A bundle of flags ending in the option, or with the
				// value after it: read as the option, fail closed.
				_, rest, _ := strings.Cut(a.Text[1:], opt[1:])
				if rest != "" {
					value = Word{Text: rest, Opaque: a.Opaque}
				} else if i+1 < len(argv) {
					i++
					value = argv[i]
				} else {
					continue
				}
			default:
				continue
			}
			add(opt, value)
			break
		}
	}
	return out
}

// goFlag writes a go flag as the table reads it: one dash (go takes
// two as well) and its value attached (-exec=x is -execx), so its value
// is found however it is written.
func goFlag(a Word) Word {
	t := a.Text
	if strings.HasPrefix(t, "--") && len(t) > 2 {
		t = t[1:]
	}
	if name, value, ok := strings.Cut(t, "="); ok {
		t = name + value
	}
	return Word{Text: t, Opaque: a.Opaque}
}

// isAbbreviation says whether word is the long option opt, whole or
// abbreviated.
func isAbbreviation(word, opt string) bool {
	found, ok := longOption(word, []string{opt})
	return ok && found == opt
}

// isFlagBundle says whether word is a bundle of short options (-cvI).
func isFlagBundle(word string) bool {
	return len(word) > 2 && word[0] == '-' && word[1] != '-'
}

// tarArgLetters are the letters of tar's options that take a value,
// which its options of old take from the words after them in turn.
const tarArgLetters = "bCfFgHIKLNTVX"

// oldTarOptions reads tar's options of old (tar cIf cmd a.tar): the
// letters of argv[1], each taking a value from the words after it in
// turn; it hands add the values of the options that run a command and
// returns where the words after them start.
func oldTarOptions(argv []Word, add func(string, Word)) int {
	next := 2
	for _, letter := range argv[1].Text {
		if !strings.ContainsRune(tarArgLetters, letter) || next >= len(argv) {
			continue
		}
		if letter == 'I' || letter == 'F' {
			add("-"+string(letter), argv[next])
		}
		next++
	}
	return next
}

// optionScript is the command in one option's value: all of it, or the
// part after tar's exec= or an ssh setting's key.
func optionScript(program, option string, value Word) (Word, bool) {
	switch {
	case option == "--checkpoint-action":
		cmd, ok := strings.CutPrefix(value.Text, "exec=")
		return Word{Text: cmd, Opaque: value.Opaque}, ok || value.Opaque
	case option == "-o" && (program == "ssh" || program == "scp" || program == "sftp"):
		key, cmd, ok := strings.Cut(value.Text, "=")
		if !ok {
			key, cmd, ok = strings.Cut(value.Text, " ")
		}
		known := false
		for _, k := range sshCommandKeys {
			known = known || strings.EqualFold(strings.TrimSpace(key), k)
		}
		return Word{Text: strings.TrimSpace(cmd), Opaque: value.Opaque}, ok && known || value.Opaque
	}
	return value, true
}
