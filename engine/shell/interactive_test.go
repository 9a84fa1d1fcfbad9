package shell

import "testing"

// interactiveCases are tmux and vim command lines and whether they run
// a command their arguments give them (each opaque one checked to run
// touch with tmux 3.3 or vim 9); the others open a session or a file.
var interactiveCases = map[string]bool{
	`tmux new-session -d 'rm x'`:       true,
	`tmux -S ./sock new -d 'rm x'`:     true,
	`tmux split-window 'rm x'`:         true,
	`tmux run-shell 'rm x'`:            true,
	`tmux send-keys -t 0 'rm x' Enter`: true,
	`tmux -f ./tmux.conf`:              true,
	`tmux "$CMD"`:                      true,
	`tmux ls`:                          false,
	`tmux attach -t main`:              false,
	`vim -es -c '!rm x' -c q`:          true,
	`vim '+!rm x' +q f`:                true,
	`vim --cmd 'silent !rm x' f`:       true,
	`vi -S session.vim`:                true,
	`nvim -es < cmds.vim`:              true,
	`ex f <<< '!rm x'`:                 true,
	`vim -u ./vimrc f`:                 true,
	`vim +10 main.go`:                  false,
	`vim +/needle -R main.go`:          false,
	`vim -d a b`:                       false,
	`view README.md`:                   false,
}

// TestInteractiveProgramsThatRunCommandsAreOpaque: tmux running a shell
// command and vim given ex commands list an opaque script, which meets
// every deny and ask rule; opening a session or a file lists nothing
// more than itself.
func TestInteractiveProgramsThatRunCommandsAreOpaque(t *testing.T) {
	for src, want := range interactiveCases {
		got := program(t, src)
		if opaque := len(got) > 1 && got[len(got)-1] == "?"; opaque != want || !want && len(got) != 1 {
			t.Errorf("%s lists %q, want a hidden command %v", src, got, want)
		}
	}
}
