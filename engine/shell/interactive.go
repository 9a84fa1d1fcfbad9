package shell

import (
	"path"
	"slices"
	"strings"
)

// Interactive programs run commands their arguments give them in their
// own command language: tmux starts a shell command in a new session,
// window or pane (and runs one for run-shell, if-shell, a popup or piped
// pane output, or types one with send-keys); vim runs an ex command
// given with -c, --cmd or +, where :!cmd runs a shell command, and in ex
// mode (ex, vim -e) reads ex commands from its input. Reading those
// languages is out of reach, so such a command line is a script only
// known when it runs.

// tmuxCommands are tmux's commands, with their aliases, that run or type
// a shell command, and source-file, which runs a file of tmux commands.
var tmuxCommands = []string{
	"new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp",
	"respawn-window", "respawnw", "run-shell", "run", "if-shell", "if", "pipe-pane", "pipep",
	"display-popup", "popup", "send-keys", "send", "source-file", "source",
}

// vims are the programs of vim's family.
var vims = []string{"vim", "vi", "nvim", "gvim", "view", "vimdiff", "ex", "evim"}

// interactiveScripts is an unknown script when argv is tmux running a
// command, or vim given ex commands, else nothing.
func interactiveScripts(argv []Word) []Word {
	if len(argv) == 0 {
		return nil
	}
	switch name := path.Base(argv[0].Text); {
	case name == "tmux":
		for _, a := range argv[1:] {
			if a.Opaque || slices.Contains(tmuxCommands, a.Text) || a.Text == "-f" || strings.HasPrefix(a.Text, "-f") {
				return []Word{{Opaque: true}}
			}
		}
	case slices.Contains(vims, name):
		if name == "ex" || slices.ContainsFunc(argv[1:], vimRunsCommands) {
			return []Word{{Opaque: true}}
		}
	}
	return nil
}

// vimRunsCommands reports whether one of vim's arguments gives it ex
// commands: -c and --cmd, a + other than a line number or a search, a
// file of commands or keys to run (-S, -s, -u, -W is written, not read),
// or ex mode (-e, -E, and bundles such as -es).
func vimRunsCommands(a Word) bool {
	t := a.Text
	switch {
	case a.Opaque:
		return true
	case t == "--cmd", t == "-c", t == "-S", t == "-s", t == "-u":
		return true
	case strings.HasPrefix(t, "+"):
		rest := strings.TrimPrefix(t, "+")
		return rest != "" && strings.Trim(rest, "0123456789") != "" && !strings.HasPrefix(rest, "/")
	case strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--"):
		return strings.ContainsAny(t[1:], "eE") && strings.Trim(t[1:], "eEsnRbdAHlMmNyZ") == ""
	}
	return false
}
