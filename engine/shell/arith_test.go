package shell

import "testing"

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
