package shell

import "testing"

// runnerCases are the commands a tool runner (uv run, bundle exec, nix
// develop …) or a program's command option (tar -I, ssh -o
// ProxyCommand, man -P …) runs, each the spelling of an attack a deny
// rule on rm must see through, and one of the commands the script lists.
var runnerCases = map[string]string{
	`uv run --with requests rm -rf x`:             "rm -rf x",
	`uv run -p 3.12 rm x`:                         "rm x",
	`poetry run rm x`:                             "rm x",
	`npx -p cowsay rm x`:                          "rm x",
	`npm exec -c 'rm x'`:                          "rm x",
	`npm x --call='rm y'`:                         "rm y",
	`bundle exec --gemfile G rm x`:                "rm x",
	`mise exec node@20 -- rm x`:                   "rm x",
	`mise x -c 'rm z'`:                            "rm z",
	`direnv exec . rm x`:                          "rm x",
	`nix develop -c rm x`:                         "rm x",
	`nix shell nixpkgs#hello --command rm x`:      "rm x",
	`gdb --args rm x`:                             "rm x",
	`perf stat -e cycles rm x`:                    "rm x",
	`nix-shell --run 'rm x'`:                      "rm x",
	`nodemon -x 'rm x'`:                           "rm x",
	`entr -s 'rm x'`:                              "rm x",
	`entr rm x`:                                   "rm x",
	`watchexec -e go rm x`:                        "rm x",
	`watchexec -- rm -rf y`:                       "rm -rf y",
	`conda run -n env rm x`:                       "rm x",
	`pnpm exec -C dir rm x`:                       "rm x",
	`devbox run -e A=1 rm x`:                      "rm x",
	`$R run rm x`:                                 "?$R run rm x",
	`uv $S rm x`:                                  "uv ?$S rm x",
	`tar -I 'rm x' -cf a.tar .`:                   "rm x",
	`tar --use-compress-program='rm y' -cf a .`:   "rm y",
	`tar -Irm -cf a .`:                            "rm",
	`tar --checkpoint-action=exec='rm z' -cf a .`: "rm z",
	`tar --checkpoint-action="$A" -cf a .`:        "?$A",
	`rsync -e 'rm x' a b`:                         "rm x",
	`ssh -o ProxyCommand='rm x' h`:                "rm x",
	`ssh -o 'ProxyCommand rm y' h`:                "rm y",
	`scp -S 'rm x' a b`:                           "rm x",
	`sort --compress-program=rm f`:                "rm",
	`man -P 'rm x' ls`:                            "rm x",
	// GNU's getopt takes an abbreviated long option, and a short one
	// ends a bundle of flags; tar's options of old take their values
	// from the words after them.
	`sort --compress-prog='rm x' f`:            "rm x",
	`sort --compress=rm f`:                     "rm",
	`tar --use-compress-prog='rm x' -cf a .`:   "rm x",
	`tar --to-comm 'rm y' -xf a`:               "rm y",
	`tar --checkpoint-act=exec='rm z' -cf a .`: "rm z",
	`tar cIf 'rm z' a.tar .`:                   "rm z",
	`tar -cI 'rm w' -f a .`:                    "rm w",
	`tar -xIrm -f a`:                           "rm",
	`ssh -vo ProxyCommand='rm x' h`:            "rm x",
	`env --split='rm s' y`:                     "rm s y",
	`sudo --us root rm u`:                      "rm u",
	`flock --comm 'rm f' l`:                    "rm f",
	`git fetch --upload='rm g' .`:              "rm g",
	`go test -exec 'rm e' ./...`:               "rm e",
	`go build --toolexec=rm .`:                 "rm",
	`go vet -vettool=/bin/rm ./...`:            "/bin/rm",
	`make SHELL=/bin/rm x`:                     "/bin/rm",
	`make --eval='x:;rm m' x`:                  "rm m",
	`rg --pre 'rm r' x`:                        "rm r",
	`rsync -avze 'rm x' a b`:                   "rm x",
}

// TestRunnersAndCommandOptionsAreFollowed: what a runner or a command
// option runs is listed as a command of its own.
func TestRunnersAndCommandOptionsAreFollowed(t *testing.T) {
	for src, want := range runnerCases {
		found := false
		got := program(t, src)
		for _, g := range got {
			found = found || g == want
		}
		if !found {
			t.Errorf("%s lists %q, want one of them %q", src, got, want)
		}
	}
}

// Options that run nothing, and words after "--", list no command of
// their own.
func TestHarmlessOptionsRunNothing(t *testing.T) {
	for src, want := range map[string]string{
		`tar --checkpoint-action=dot -cf a .`: "tar --checkpoint-action=dot -cf a .",
		`ssh -o User=bob h`:                   "ssh -o User=bob h",
		`tar -- -I x`:                         "tar -- -I x",
		`uv pip install x`:                    "uv pip install x",
	} {
		if got := program(t, src); len(got) != 1 || got[0] != want {
			t.Errorf("%s lists %q", src, got)
		}
	}
}

// RunsCommands and RunsCommandsAfter name the programs (and
// subcommands) a rule allowing by name alone would let run anything.
func TestRunsCommands(t *testing.T) {
	for program, want := range map[string]bool{
		"sudo": true, "/usr/bin/env": true, "bash": true, "eval": true, "find": true, "watch": true, "npx": true, "gdb": true,
		"ls": false, "git": false, "uv": false,
	} {
		if RunsCommands(program) != want {
			t.Errorf("RunsCommands(%s) = %v", program, !want)
		}
	}
	for pair, want := range map[[2]string]bool{
		{"uv", "run"}: true, {"bundle", "exec"}: true, {"/usr/local/bin/npm", "x"}: true,
		{"uv", "pip"}: false, {"npx", ""}: false, {"ls", "run"}: false,
	} {
		if RunsCommandsAfter(pair[0], pair[1]) != want {
			t.Errorf("RunsCommandsAfter(%s, %s) = %v", pair[0], pair[1], !want)
		}
	}
}

// Declarations of bare names, the commonest export of all, parse, and
// so do nested empty braces: the fuzzer found `export A` (a name with no
// value) and `{{,},}` (which the printer cannot print) crashing the
// reader.
func TestBareDeclarationsParse(t *testing.T) {
	for _, src := range []string{"export A", "declare -x B", "local C", "export D=1 E", "readonly F; export G", "{{,},}", "echo {a,{,}}"} {
		if _, err := Parse(src); err != nil {
			t.Errorf("Parse(%q): %v", src, err)
		}
	}
}

// A time clause with nothing to time, or with only an option, parses.
func TestBareTimeParses(t *testing.T) {
	for _, src := range []string{"time", "time -p", "time -v", "time -v | x"} {
		if _, err := Parse(src); err != nil {
			t.Errorf("Parse(%q): %v", src, err)
		}
	}
}
