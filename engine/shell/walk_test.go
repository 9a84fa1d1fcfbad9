package shell

import (
	"reflect"
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
