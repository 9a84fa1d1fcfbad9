package shell

import "testing"

// textProgramCases are awk and sed command lines and whether their
// program may run a command (system(), a pipe, sed's e): such a line
// lists an opaque script, which meets every deny and ask rule.
var textProgramCases = map[string]bool{
	`awk '{print}' f`:                           false,
	`awk '{a = b || c}'`:                        false,
	`awk -F: '{print $1}' /etc/passwd`:          false,
	`awk -f prog.awk f`:                         false,
	`awk --file p.awk '{system("x")}'`:          false, // the program is the file's; the operand is data
	`awk -v x=1 -F, -- '{print}'`:               false,
	`awk`:                                       false,
	`awk -F`:                                    false,
	`awk 'BEGIN{system("rm x")}'`:               true,
	`awk '{print | "sh"}'`:                      true,
	`awk -e 'BEGIN{system("x")}'`:               true,
	`gawk --source='{print |& "x"}'`:            true,
	`mawk -- '{system("rm")}'`:                  true,
	`nawk -v x=1 "$P"`:                          true,
	`awk -v "$V" '{print}'`:                     true,
	`gawk --source "$S" f`:                      true,
	`sed 's/a/b/' f`:                            false,
	`sed -e 's/x/y/' -e '1d' f`:                 false,
	`sed -i.bak 's/a/b/' f`:                     false,
	`sed -f script.sed f`:                       false,
	`sed --expression='$!N;s/\n/ /;P;D' f`:      false,
	"sed '/re/,+3{s|a|b|w out.txt\n}; 5q' f":    false,
	"sed '#comment\ns/a/b/' f":                  false,
	"sed '\\%x%d; y/a\\/b/xyz/; a\\\\\ntext' f": false,
	`sed '1~2{p}; 5q; 3b end; :end' f`:          false,
	`sed '1!G;h;$!d' f`:                         false,
	`sed --line-length 5 'l' f`:                 false,
	`sed '  ' f`:                                false,
	`sed -n`:                                    false,
	`sed 's/a/b/e' f`:                           true,
	`sed -n '1e rm x' f`:                        true,
	`sed -ne 's/x/rm/ep' f`:                     true,
	`sed 's/a/b/g;e' f`:                         true,
	"sed 's/a/b/w x\ne' f":                      true,
	`sed 'v' f`:                                 true, // a command sed's reader does not know
	`sed -- 'e' f`:                              true,
	`sed -l "$N" 's/a/b/' f`:                    true,
	`gsed -- "$S" f`:                            true,
}

// TestTextProgramsThatRunCommandsAreOpaque: an awk or sed program that
// may run a command lists an opaque script; one that only edits text
// lists nothing more than itself.
func TestTextProgramsThatRunCommandsAreOpaque(t *testing.T) {
	for src, want := range textProgramCases {
		got := program(t, src)
		opaque := len(got) > 1 && got[len(got)-1] == "?"
		if opaque != want || !want && len(got) != 1 {
			t.Errorf("%s lists %q, want a hidden command %v", src, got, want)
		}
	}
}
