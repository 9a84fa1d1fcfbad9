package shell

import (
	"strings"
	"testing"
)

// TestCdMovesTheFolderRulesResolveIn: relative operands are placed in
// every folder the command may run in (the blocklist reads `cd / && rm
// -rf *` as rm -rf /*); a folder the line does not say is UnknownDir,
// never a wrong one: after `cd / && pushd /tmp && popd` the shell is in
// /, not /tmp. A cd may fail, so the folder before it stays among them,
// but for a command that runs only on its success (&&).
func TestCdMovesTheFolderRulesResolveIn(t *testing.T) {
	for src, want := range dirCases {
		cmds, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(cmds[len(cmds)-1].Dirs, " "); got != want {
			t.Errorf("%s: last command runs in %q, want %q", src, got, want)
		}
	}
}

// dirCases are scripts and the folders their last command may run in as
// the walker knows them ("" the one the script started in, ? unknown),
// separated by spaces.
var dirCases = map[string]string{
	`cd -P /tmp && rm a`:                "/tmp",
	`cd /tmp && cd sub/.. && rm b`:      "/tmp",
	`cd /tmp && cd && rm c`:             "~",
	`cd /tmp && cd $HOME && rm d`:       "~",
	`cd /tmp && cd ${HOME} && rm e`:     "~",
	`cd ~/x && rm f`:                    "~/x",
	`cd / && cd -- -x && rm g`:          "/-x",
	`cd rel && rm h`:                    "",
	`cd /tmp && cd "$D" && rm i`:        "?",
	`cd /tmp && cd - && rm j`:           "?",
	`cd /tmp && cd ~root && rm k`:       "?",
	`cd / && pushd /tmp && rm l`:        "/tmp",
	`cd / && pushd /tmp && popd && rm`:  "?",
	`cd / && pushd /tmp && pushd && rm`: "?",
	`cd / && pushd +1 && rm m`:          "?",
	`cd / && pushd -n /tmp && rm n`:     "?",
	`(cd /); rm o`:                      "",
	`f() { cd /; }; rm p`:               " /",
	`cd /tmp; find . -exec rm {} +`:     " /tmp",
	// a cd that may fail leaves the shell where it was
	`cd /; cd no-such-dir; rm -rf *`:           " / /no-such-dir",
	`cd / && cd no-such-dir; rm -rf *`:         " / /no-such-dir",
	`cd /; cd x || true; rm -rf ./*`:           " / /x",
	`cd /; cd x || exit; rm q`:                 " / /x",
	`cd /; pushd x; rm r`:                      " / /x",
	`cd /; cd x && true && rm s`:               " /x",
	`cd /; { cd x; } && rm t`:                  " /x",
	`cd /; { cd x; true; } && rm u`:            " / /x",
	`cd /; ! cd x && rm v`:                     " / /x",
	`cd /; cd /a || cd /b && rm w`:             " / /a /b",
	`cd /; if false; then cd /tmp; fi && rm x`: " / /tmp",
	`cd /; sh -c 'cd /tmp' && rm y`:            " / /tmp",
	`cd /; X=1 && rm z`:                        " /",
	`cd /nonexistent && rm -rf *`:              "/nonexistent",
	`cd build && rm -rf *`:                     "",
	`cd build; rm -rf *`:                       "",
	`cd a; cd b; cd c; cd d; cd /e; cd f; rm`:  " /e /e/f",
	`cd /a; cd b; cd c; cd d; cd e; cd f; rm`:  "?",
}
