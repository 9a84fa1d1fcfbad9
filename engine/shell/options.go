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
	}
}

// sshCommandKeys are the ssh settings (-o Key=value) that run a command.
var sshCommandKeys = []string{"proxycommand", "localcommand", "knownhostscommand"}

// optionScripts are the commands a program's options hand to a shell.
func optionScripts(argv []Word) []Word {
	if len(argv) == 0 {
		return nil
	}
	name := path.Base(argv[0].Text)
	options := commandOptions()[name]
	var out []Word
	for i := 1; i < len(argv) && len(options) > 0; i++ {
		a := argv[i]
		if a.Text == "--" {
			break
		}
		for _, opt := range options {
			var value Word
			switch {
			case a.Text == opt && i+1 < len(argv):
				i++
				value = argv[i]
			case strings.HasPrefix(a.Text, opt+"="):
				value = Word{Text: strings.TrimPrefix(a.Text, opt+"="), Opaque: a.Opaque}
			case !strings.HasPrefix(opt, "--") && strings.HasPrefix(a.Text, opt) && len(a.Text) > len(opt):
				value = Word{Text: a.Text[len(opt):], Opaque: a.Opaque}
			default:
				continue
			}
			if script, ok := optionScript(name, opt, value); ok {
				out = append(out, script)
			}
			break
		}
	}
	return out
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
