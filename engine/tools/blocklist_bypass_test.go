package tools

import (
	"strings"
	"testing"
)

// TestCheckCommandSpellings are the ways a rule was slipped past the old
// lexical splitter (issue 11): each must now be refused, by the rule it
// really is.
func TestCheckCommandSpellings(t *testing.T) {
	const root, home = "rm -rf of the filesystem root", "rm -rf of the home directory"
	tests := []struct{ cmd, rule string }{
		// compound commands
		{"if true; then rm -rf ~; fi", home},
		{"if false; then :; elif true; then rm -rf /; fi", root},
		{"if false; then :; else rm -rf /; fi", root},
		{"while true; do rm -rf /; done", root},
		{"until false; do rm -rf /*; done", root},
		{"for d in a b; do rm -rf /; done", root},
		{"for d in $(rm -rf /); do :; done", root},
		{"case x in x) rm -rf /;; esac", root},
		{"case $(rm -rf /) in *) ;; esac", root},
		{"! rm -rf /*", root},
		{"true && rm -rf / || true", root},
		{"false || rm -rf /", root},
		{"{ rm -rf /; }", root},
		{"(rm -rf /)", root},
		{"((1)) && (cd / && rm -rf *)", root},
		{"[[ -n $(rm -rf /) ]]", root},
		{"echo $(( $(rm -rf /) ))", root},
		{"time rm -rf /", root},
		{"rm -rf / &", root},
		{"coproc rm -rf /", root},
		// functions
		{"f() { rm -rf /; }; f", root},
		{"function f { rm -rf ~; }; f", home},
		// substitutions
		{"echo $(echo $(rm -rf /))", root},
		{"cat <(rm -rf /)", root},
		{"x=$(rm -rf /)", root},
		{"export X=$(rm -rf /)", root},
		{"echo ${X:-$(rm -rf /)}", root},
		{"echo hi > $(rm -rf /)", root},
		// cd then a relative operand
		{"cd / && rm -rf *", root},
		{"cd /; rm -rf ./*", root},
		{"cd //tmp/.. && rm -rf *", root},
		{"cd && rm -rf *", home},
		{"cd ~ && rm -rf ./*", home},
		{"cd $HOME; rm -rf *", home},
		// path spellings
		{"rm -rf /./", root},
		{"rm -rf ///", root},
		{"rm -rf /tmp/../", root},
		{"rm -rf /.*", root},
		{"rm -rf /{usr/..,srv}", root},
		{"rm -rf /{,}", root},
		{"rm -rf $'\\x2f'", root},
		{"rm -rf '/'\"*\"", root},
		{"rm -rf ~//", home},
		{"rm -rf ~/./*", home},
		{"rm -rf ${HOME}/*", home},
		{"X=/; rm -rf $X", root},
		{"rm -rf ${NOPE:-/}", root},
		{"r\\m -rf /", root},
		{"'rm' -rf /", root},
		{"\"/usr/bin/rm\" -rf /", root},
		{"rm -r\\f /", root},
		{"dd of=//dev/sda", "dd writing to a device"},
		{"dd if=/dev/zero of=/dev/./sda", "dd writing to a device"},
		{"echo x >//dev/sda", "writing to a disk device"},
		{"cat x >> /dev/../dev/nvme0n1", "writing to a disk device"},
		{"cat x &> /dev/sda1", "writing to a disk device"},
		{"cd /dev && cat x > sda", "writing to a disk device"},
		// wrappers
		{"env rm -rf /", root},
		{"env -i PATH=/bin rm -rf /", root},
		{"env -S 'rm -rf /'", root},
		{"timeout -s KILL 5 rm -rf /", root},
		{"nice -n 19 ionice -c3 rm -rf /", root},
		{"nohup rm -rf / &", root},
		{"sudo -E -u root -- rm -rf /", root},
		{"sudo --user=root rm -rf /", root},
		{"command rm -rf /", root},
		{"time -- rm -rf /", root},
		{"time -p -- rm -rf /", root},
		{"exec rm -rf /", root},
		{"builtin eval 'rm -rf /'", root},
		{"eval -- 'rm -rf /'", root},
		{"echo / | xargs rm -rf /", root},
		{"xargs -n1 -I{} rm -rf / < list", root},
		{"stdbuf -oL setsid rm -rf /", root},
		{"find / -maxdepth 0 -exec rm -rf / \\;", root},
		// scripts in strings
		{"bash -c 'if true; then rm -rf ~; fi'", home},
		{"sh -ec 'cd / && rm -rf *'", root},
		{"bash -o pipefail -c 'rm -rf /'", root},
		{"su -c 'rm -rf /'", root},
		{"eval \"eval 'rm -rf /'\"", root},
		{"bash -c \"bash -c 'sh -c \\\"rm -rf /\\\"'\"", root},
		{"bash <<< 'rm -rf /'", root},
		{"sh <<EOF\nrm -rf /\nEOF", root},
		{"echo 'rm -rf /' | sh", root},
		{"echo -n 'rm -rf /' | sh", root},
		{"printf 'rm -rf ~' | bash", home},
		{"timeout 5 bash -c 'sudo dd if=/dev/zero of=//dev/sda'", "dd writing to a device"},
		// the other rules, spelled around
		{"if true; then git push --force; fi", "git push --force"},
		{"(cd repo && git push -f)", "git push --force"},
		{"env mkfs.ext4 /dev/sdb", "mkfs formats a filesystem"},
		{"f() { f | f & }; f", "a fork bomb"},
		{"bash -c ':(){ :|:& };:'", "a fork bomb"},
		{"sudo -- chmod -R 777 //", "recursive chmod or chown of the filesystem root"},
		{"{ sleep 1; systemctl reboot; }", "shutdown or reboot of the machine"},
		// nesting beyond what is checked
		{strings.Repeat("eval ", 1) + "\"eval \\\"eval 'eval \\\\\\\"eval \\\\\\\\\\\\\\\"eval true\\\\\\\\\\\\\\\"\\\\\\\"'\\\"\"", "scripts nested more than 4 deep cannot be checked"},
	}
	for _, tc := range tests {
		t.Run(tc.cmd, func(t *testing.T) {
			err := CheckCommand(tc.cmd)
			if err == nil {
				t.Fatalf("CheckCommand(%q) allowed it", tc.cmd)
			}
			if want := "refused by baton's safety rules: " + tc.rule; !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("CheckCommand(%q) = %q, want %q", tc.cmd, err, want)
			}
		})
	}
}

// TestCheckCommandUnparseable refuses what the parser cannot read, with
// the parser's reason.
func TestCheckCommandUnparseable(t *testing.T) {
	for _, cmd := range []string{"echo 'unterminated", "if true; then", "echo $(", "bash -c 'echo \"x'"} {
		err := CheckCommand(cmd)
		if err == nil || !strings.Contains(err.Error(), "cannot check the command") {
			t.Errorf("CheckCommand(%q) = %v, want a parse refusal", cmd, err)
		}
	}
}
