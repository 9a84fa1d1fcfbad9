package shell

import (
	"testing"
)

// fuzzSeeds are scripts that exercise every path of the reader: the
// spellings rules must see through, quoting, nesting and syntax errors.
var fuzzSeeds = []string{
	`cd /tmp && X=b; if true; then go test ./... | tee "$X".log; fi; bash -c 'rm -f a{1,2}' & echo "$(git status)"`,
	`sudo -u root env A=1 nice -n 5 timeout -s KILL 5 rm -rf x`, `env -S 'rm -rf x'`, `xargs -I {} -n 1 rm {}`,
	`echo 'open`, `sh -c 'sh -c "sh -c true"'`, `f() { f | f & }; f`, `cat <<EOF` + "\n$(rm x)\nEOF",
	`rm -rf $'\x2f' "${X:-/}" /{usr/..,srv}`, `git -c alias.p='!rm x' p`, `{a..z}{1..9}{,}`,
	`parallel -j4 'rm {}' ::: a b :::: list`, `find . -execdir sh -c 'rm "$1"' _ {} +`, "a\\\n b `c` $((d)) ${e//f/g}",
	`trap -- 'rm x' EXIT`, `alias a= b='c d'`, `echo x | xargs -0 sh -c`, `. /dev/fd/3`, `bash -- /dev/stdin`,
	`coproc x { rm y; }`, `select a in b; do rm c; done`, `[[ $(rm x) == y ]]`, `let x=$(rm y)`,
	`flock -c`, `watch`, `git --`, `env -`, `sudo -- -`, `timeout`, `command -v`, `$@`, `"$@"`, `${!x}`,
}

// FuzzParse: the reader never panics and never hangs on any input, and
// what it lists is consistent: one opacity flag per word, a Program
// that is a suffix of what wrappers leave, a Subcommand inside it.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	for _, table := range []map[string]string{programCases, scriptCases, subcommandCases, runnerCases, dirCases} {
		for s := range table {
			f.Add(s)
		}
	}
	for _, table := range []map[string][]string{listCases, scriptListCases, gitListCases, optionListCases} {
		for s := range table {
			f.Add(s)
		}
	}
	for _, table := range []map[string]bool{hiddenCases, textProgramCases, commandVarCases, interactiveCases} {
		for s := range table {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		cmds, err := Parse(src)
		if err != nil {
			return
		}
		for _, c := range cmds {
			if len(c.Opaque) != len(c.Args) {
				t.Fatalf("%q: %d words, %d opacity flags", src, len(c.Args), len(c.Opaque))
			}
			words := c.Program()
			if i, _ := Subcommand(words); i < 0 || i > len(words) {
				t.Fatalf("%q: subcommand %d of %d words", src, i, len(words))
			}
			Unwrap(c.Args)
		}
	})
}
