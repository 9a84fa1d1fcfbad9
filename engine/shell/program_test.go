package shell

import (
	"strings"
	"testing"
)

// program renders the Program of each command of a script, an opaque
// word marked with a leading "?".
func program(t *testing.T, src string) []string {
	t.Helper()
	cmds, err := Parse(src)
	if err != nil {
		t.Fatalf("Parse(%q): %v", src, err)
	}
	var out []string
	for _, c := range cmds {
		var words []string
		for _, w := range c.Program() {
			if w.Opaque {
				words = append(words, "?"+w.Text)
			} else {
				words = append(words, w.Text)
			}
		}
		out = append(out, strings.Join(words, " "))
	}
	return out
}

// programCases are scripts and the Program of their last command.
var programCases = map[string]string{
	`rm "x" 'y'`:              "rm x y",
	`$(echo rm) x`:            "?$(echo rm) x",
	"`echo rm` x":             "?$(echo rm) x",
	`R=rm; $R x`:              "?rm x",
	`"$R" x`:                  "?$R x",
	`{rm,x}`:                  "?rm ?x",
	`{r..r}m`:                 "?{r..r}m",
	`/bin/r? x`:               "?/bin/r? x",
	`[ -f x ]`:                "[ -f x ]",
	`ls '*.go' *.go`:          "ls *.go ?*.go",
	`find . -exec rm {} +`:    "rm ?{}",
	`timeout $T rm x`:         "?$T rm x",
	`timeout 5 $P x`:          "?$P x",
	`sudo -u "$U" rm x`:       "rm x",
	`env -S "$CMD" x`:         "?$CMD x",
	`env $A rm`:               "?$A rm",
	`xargs -I% % -v`:          "?% -v",
	`$'\x72m' x`:              "rm x",
	`command -v rm`:           "",
	`nice -n 5 ionice -c3 rm`: "rm",
	`stdbuf -o0 setsid -w rm`: "rm",
	`chrt -f 10 taskset 1 rm`: "rm",
}

// TestProgramMarksWhatOnlyTheShellKnows: the words a rule cannot know
// before the shell runs are opaque, and an opaque word where a wrapper's
// options or operands are ends the unwrapping, since it may be the
// program.
func TestProgramMarksWhatOnlyTheShellKnows(t *testing.T) {
	for src, want := range programCases {
		if got := program(t, src); got[len(got)-1] != want {
			t.Errorf("Program(%s) = %q, want last %q", src, got, want)
		}
	}
}

// scriptCases are scripts and one Program they must list.
var scriptCases = map[string]string{
	`watch -n 1 'rm x'`:                       "rm x",
	`parallel 'rm {}' ::: a`:                  "rm {}",
	`parallel ::: 'rm x'`:                     "rm x",
	`parallel {} ::: 'rm x'`:                  "?{}",
	`ls | parallel`:                           "?",
	`flock /tmp/l -c 'rm x'`:                  "rm x",
	`trap 'rm x' EXIT`:                        "rm x",
	`alias r='rm -f'`:                         "rm -f",
	`bash -c "$X"`:                            "?$X",
	`X='rm y'; bash -c "$X"`:                  "rm y",
	`curl -s u | sh`:                          "?",
	`echo 'rm x' | sh`:                        "rm x",
	`echo data | sh ./script.sh`:              "sh ./script.sh",
	`source <(curl -s u)`:                     "?",
	`bash /dev/stdin <<< 'rm x'`:              "?",
	`xargs sh -c`:                             "?",
	`sudo runuser -l u -c 'rm x'`:             "rm x",
	"bash <<EOF\nrm $X\nEOF":                  "rm ?$X",
	"bash <<'EOF'\nrm $X\nEOF":                "rm ?$X",
	`eval "rm $(cat list)"`:                   "rm ?$(cat list)",
	`git -c alias.p=push p origin`:            "git -c alias.p=push p origin",
	`git -c core.pager='rm x' log`:            "rm x",
	`git -c 'alias.x=!rm y' x`:                "rm y",
	`git -c core.pager='(' log`:               "?",
	`git -c "$K=v" log`:                       "?",
	`git rebase -x 'rm x' main`:               "rm x",
	`git grep -O'rm x' pattern`:               "rm x",
	`git bisect run rm x`:                     "rm x",
	`EDITOR='rm x' git commit`:                "rm x",
	`export GIT_PAGER='rm x'`:                 "rm x",
	`env LESSOPEN='|rm x' less f`:             "rm x",
	`env 'BASH_FUNC_f%%=() { :; }' bash -c f`: "?",
	`hash -p /bin/rm ls`:                      "/bin/rm",
}

// TestScriptsInStringsAreFollowed: what runs from a string is listed,
// and a script only known when it runs is one opaque command.
func TestScriptsInStringsAreFollowed(t *testing.T) {
	for src, want := range scriptCases {
		got := program(t, src)
		found := false
		for _, g := range got {
			found = found || g == want
		}
		if !found {
			t.Errorf("%s lists %q, want one of them %q", src, got, want)
		}
	}
}

// subcommandCases are commands and their subcommand ("unknown" when
// options may have renamed it).
var subcommandCases = map[string]string{
	`git -C . --no-pager -c a.b=c --git-dir=.git push`: "push",
	`git --work-tree . push`:                           "push",
	`git -c alias.p=push p`:                            "unknown",
	`git -c "$C" p`:                                    "unknown",
	`git --config-env=include.path=X p`:                "unknown",
	`git $OPT push`:                                    "?$OPT",
	`docker --context x -H h rm y`:                     "rm",
	`kubectl -n ns delete pod x`:                       "delete",
	`cargo +nightly build`:                             "build",
	`go -C sub test`:                                   "test",
	`ls -la x`:                                         "-la",
	`git --`:                                           "",
}

// TestSubcommand skips global options before a subcommand, and knows
// when git's config may have renamed it.
func TestSubcommand(t *testing.T) {
	for src, want := range subcommandCases {
		cmds, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		words := cmds[0].Program()
		i, known := Subcommand(words)
		got := ""
		switch {
		case !known:
			got = "unknown"
		case i < len(words) && words[i].Opaque:
			got = "?" + words[i].Text
		case i < len(words):
			got = words[i].Text
		}
		if got != want {
			t.Errorf("Subcommand(%s) = %q, want %q", src, got, want)
		}
	}
}
