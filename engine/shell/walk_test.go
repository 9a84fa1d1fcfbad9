package shell

import (
	"reflect"
	"strings"
	"testing"
)

// listCases are scripts and every Program they list, in order: what
// deny and ask rules see of each statement shape, an opaque word marked
// "?".
var listCases = map[string][]string{
	`while read l; do rm "$l"; done`:                  {"read l", "rm ?$l"},
	`until false; do rm x; done`:                      {"false", "rm x"},
	`case $x in a) rm a;; $(rm b)) ;; esac`:           {"rm a", "rm b"},
	`f() { rm f; }; f | f`:                            {"rm f", "f", "f"},
	`coproc rm e`:                                     {"rm e"},
	`time { rm d; }`:                                  {"rm d"},
	`time -p rm a`:                                    {"rm a"},
	`[[ -f $(rm f) ]]`:                                {"rm f"},
	`let x=$(rm g)`:                                   {"rm g"},
	`a[$(rm idx)]=1`:                                  {"rm idx"},
	`declare -a c=(x $(rm arr))`:                      {"rm arr"},
	`a=(1 $(rm arr)); echo ${a[0]}`:                   {"rm arr", "echo ?${a[0]}"},
	`echo "$(rm x)" ` + "`rm y`":                      {"rm x", "rm y", "echo ?$(rm x) ?$(rm y)"},
	`cat <(rm p) >(rm q)`:                             {"rm p", "rm q", "cat ?<(rm p) ?>(rm q)"},
	`A=x; A+=y; $A`:                                   {"?xy"},
	`A=; $A rm`:                                       {"? rm"},
	`export A; A=1 B=2`:                               nil,
	`(X=rm); $X b`:                                    {"?$X b"},
	`X=1; echo ${X:-d} ${Y:-d} ${Y:=e} ${#X} $X ${Z}`: {"echo ?${X:-d} ?d ?e ?${#X} ?1 ?${Z}"},
	// bash's time keyword takes -p and then one "--"; dash's time
	// program ends its options at "--": both run rm.
	`time -- rm c`:    {"rm c"},
	`time -p -- rm d`: {"rm d"},
	`time -v rm b`:    {"rm b"},
	`time --`:         nil,
	// Globs and brace expansions are only known when the shell runs;
	// quoting keeps them literal.
	`echo [ab] x[ y\* "*"`:                   {"echo ?[ab] x[ y* *"},
	`rm a{1..3}`:                             {"rm ?a{1..3}"},
	`rm {a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}`: {"rm ?{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}"},
	`rm {a,b}{c,d}`:                          {"rm ?ac ?ad ?bc ?bd"},
}

// TestEveryStatementShapeIsWalked: loops, cases, functions, coprocesses,
// time, tests, arithmetic, arrays and substitutions all list the commands
// they run, and a subshell's variables do not leak out of it.
func TestEveryStatementShapeIsWalked(t *testing.T) {
	for src, want := range listCases {
		if got := program(t, src); !reflect.DeepEqual(got, want) {
			t.Errorf("%s lists %q, want %q", src, got, want)
		}
	}
}

// TestQuotingReadsAsTheShellReadsIt: backslashes, double and single
// quotes, and $'…' escapes give the words bash would pass, so $'\x72m'
// is rm to a rule as it is to the shell.
func TestQuotingReadsAsTheShellReadsIt(t *testing.T) {
	for src, want := range map[string]string{
		`echo a\ b "a\"b\$c\d" 'e\f'`:                   `echo|a b|a"b$c\d|e\f`,
		"echo \"a\\\nb\" c\\\nd":                        "echo|ab|cd",
		`echo $'\a\b\e\E\f\n\r\t\v'`:                    "echo|\a\b\x1b\x1b\f\n\r\t\v",
		`echo $'\x72m' $'\u0072\U0000006d' $'\162\155'`: "echo|rm|rm|rm",
		`echo $'\cA\q\xZZ\u\\' $'\777' $'a\'b'`:         "echo|\x01q\\xZZ\\u\\|\xff|a'b",
		`echo $"hi"`:                                    "echo|hi",
	} {
		cmds, err := Parse(src)
		if err != nil {
			t.Fatalf("Parse(%s): %v", src, err)
		}
		if got := strings.Join(cmds[0].Args, "|"); got != want {
			t.Errorf("Parse(%s) = %q, want %q", src, got, want)
		}
	}
}

// TestUnescape reads a word as the shell removes its backslashes, quoted
// or not.
func TestUnescape(t *testing.T) {
	for _, c := range []struct {
		in     string
		quoted bool
		want   string
	}{
		{`r\m`, false, "rm"}, {`r\m`, true, `r\m`}, {`\$x\"`, true, `$x"`}, {"a\\\nb", true, "ab"},
		{`end\`, false, `end\`}, {`plain`, false, "plain"}, {`\\\*`, false, `\*`},
	} {
		if got := Unescape(c.in, c.quoted); got != c.want {
			t.Errorf("Unescape(%q, %v) = %q, want %q", c.in, c.quoted, got, c.want)
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

// hiddenCases are scripts that hand bash a string to evaluate as a
// name, a subscript or arithmetic, where a command substitution inside
// quotes runs (each was checked to run its command in bash 5.2), and
// scripts that look alike but run nothing hidden.
var hiddenCases = map[string]bool{
	`x='a[$(rm x)]'; echo $((x))`:                  true,
	`(( 'a[$(rm y)]' ))`:                           true,
	`for ((i='a[$(rm z)]'; i<1; i++)); do :; done`: true,
	`echo ${s:'a[$(rm o)]':1}`:                     true,
	`echo ${s:0:'a[$(rm l)]'}`:                     true,
	`printf -v 'a[$(rm p)]' x`:                     true,
	`printf -v'a[$(rm q)]' x`:                      true,
	`read "a[\$(rm s)]"`:                           true,
	`x="a[\$(rm t)]"; echo ${!x}`:                  true,
	`x=$'a[\x24(rm u)]'; echo $((x))`:              true,
	"x='`rm v`'; echo ${x@P}":                      true,
	"unset 'a[`rm b`]'":                            true,
	// An indexed array's subscripts in a literal, and a value given
	// to a name declared an integer or a nameref, are arithmetic or
	// names too.
	`a=(['$(rm r1)']=1)`:                 true,
	`x='a[$(rm r3)]'; a=([x]=1)`:         true,
	`declare -i n='a[$(rm d)]'`:          true,
	`local -i k='a[$(rm k)]'`:            true,
	`typeset -i m; m='a[$(rm m)]'`:       true,
	`declare -i y; y+='a[$(rm y)]'`:      true,
	`x='a[$(rm r7)]'; declare -i y=x`:    true,
	`declare -n r='a[$(rm w)]'; echo $r`: true,
	`declare $F r='a[$(rm f)]'`:          true,
	`printf '%s' 'a[$(rm r)]'`:           false,
	`x='$(rm w)'; echo "$x"`:             false,
	`declare -x n='a[$(rm e)]'`:          false,
	`declare -i n=1; m='a[$(rm m)]'`:     false,
	`echo $((1 + 2)); a=([1]=x)`:         false,
}

// commandVarCases set a variable whose value a program runs (each was
// checked in bash 5.2 with GIT_SSH_COMMAND exported, then git ls-remote
// ssh://…) other than by an assignment the line shows, and scripts that
// set other variables so.
var commandVarCases = map[string]bool{
	`read GIT_SSH_COMMAND <<< 'rm x'; git ls-remote ssh://h/x`:              true,
	`builtin read -r GIT_SSH_COMMAND < f; git fetch`:                        true,
	`for GIT_SSH_COMMAND in 'rm x'; do git ls-remote ssh://h/x; done`:       true,
	`select PAGER in a b; do man ls; done`:                                  true,
	`printf -v GIT_SSH_COMMAND %s 'rm x'; git ls-remote ssh://h/x`:          true,
	`printf -vEDITOR %s 'rm x'; git commit`:                                 true,
	`: ${GIT_SSH_COMMAND:='rm x'}; git ls-remote ssh://h/x`:                 true,
	`mapfile -t BASH_ENV < list`:                                            true,
	`for f in *.go; do gofmt -l "$f"; done; read line; printf -v x %s "$y"`: false,
	`echo "${X:=default}"`:                                                  false,
}

// TestHiddenEvaluationIsOpaque: a quoted substitution bash evaluates
// as a name or arithmetic lists an opaque command, which meets every
// deny and ask rule; a quoted one bash leaves as text does not. So does
// a command variable set to a value the line does not show as an
// assignment.
func TestHiddenEvaluationIsOpaque(t *testing.T) {
	for src, want := range hiddenCases {
		cmds, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, c := range cmds {
			if p := c.Program(); len(p) > 0 && p[0].Opaque && p[0].Text == "" {
				got = true
			}
		}
		if got != want {
			t.Errorf("%s: an opaque command listed = %v, want %v (%q)", src, got, want, program(t, src))
		}
	}
	for src, want := range commandVarCases {
		if got := program(t, src); (got[0] == "?") != want {
			t.Errorf("%s lists %q, want an opaque command first %v", src, got, want)
		}
	}
}
