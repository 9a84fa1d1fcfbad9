package shell

import "testing"

// TestCdMovesTheFolderRulesResolveIn: relative operands are placed in
// the folder a literal cd moved to (the blocklist reads `cd / && rm -rf
// *` as rm -rf /*), and a folder the line does not say is unknown, never
// a wrong one: after `cd / && pushd /tmp && popd` the shell is in /, not
// /tmp.
func TestCdMovesTheFolderRulesResolveIn(t *testing.T) {
	for src, want := range dirCases {
		cmds, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		if got := cmds[len(cmds)-1].Dir; got != want {
			t.Errorf("%s: last command runs in %q, want %q", src, got, want)
		}
	}
}

// dirCases are scripts and the folder their last command runs in as the
// walker knows it: a literal cd moves it, and whatever the line does not
// say (another user's home, the previous folder, pushd's stack, a
// variable) makes it unknown ("") rather than wrong.
var dirCases = map[string]string{
	`cd -P /tmp && rm a`:                "/tmp",
	`cd /tmp && cd sub/.. && rm b`:      "/tmp",
	`cd /tmp && cd && rm c`:             "~",
	`cd /tmp && cd $HOME && rm d`:       "~",
	`cd /tmp && cd ${HOME} && rm e`:     "~",
	`cd ~/x && rm f`:                    "~/x",
	`cd / && cd -- -x && rm g`:          "/-x",
	`cd rel && rm h`:                    "",
	`cd /tmp && cd "$D" && rm i`:        "",
	`cd /tmp && cd - && rm j`:           "",
	`cd /tmp && cd ~root && rm k`:       "",
	`cd / && pushd /tmp && rm l`:        "/tmp",
	`cd / && pushd /tmp && popd && rm`:  "",
	`cd / && pushd /tmp && pushd && rm`: "",
	`cd / && pushd +1 && rm m`:          "",
	`cd / && pushd -n /tmp && rm n`:     "",
	`(cd /); rm o`:                      "",
	`f() { cd /; }; rm p`:               "/",
	`cd /tmp; find . -exec rm {} +`:     "/tmp",
}
