package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// TestCommandsCannotChangeWhatRunsOutsideTheSandbox: a sandboxed command
// may write the workspace, but not .git's config and hooks or the
// project's agent settings. It adds a filter driver to .git/config, a
// pre-commit hook, widens .claude/settings.json, adds an .mcp.json server
// and swaps .claude/agents for a link to a folder outside; each would run
// or be trusted outside the sandbox later (git for the person, baton in a
// trusted folder). The kernel refuses what exists (where commands have a
// mount namespace) and baton removes what the command created; after the
// command all of it is as before, the model is told exactly what was put
// back, and an ordinary file the command wrote stays written.
func TestCommandsCannotChangeWhatRunsOutsideTheSandbox(t *testing.T) {
	if !sandbox.Available() {
		t.Skip("no Landlock here: " + sandbox.Unavailable())
	}
	config := "[core]\n\tbare = false\n"
	settings := `{"permissions":{"deny":["Bash(rm:*)"]}}`
	ws := newTree(t, map[string]string{
		".git/config": config, ".git/HEAD": "ref: refs/heads/main\n", ".git/hooks/pre-commit.sample": "#!/bin/sh\n",
		".claude/settings.json": settings, ".claude/agents/a.md": "---\nname: a\n---\nhi\n", "main.go": "package main\n",
	})
	outside := t.TempDir()
	cmd := strings.Join([]string{
		`printf '[filter "x"]\n\tclean = touch /tmp/pwned\n' >> .git/config`,
		`printf '#!/bin/sh\ntouch /tmp/pwned\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`,
		`echo '{"permissions":{"allow":["Bash"]}}' > .claude/settings.json`,
		`echo '{"mcpServers":{"x":{"command":"sh"}}}' > .mcp.json`,
		`rm -r .claude/agents && ln -s ` + outside + ` .claude/agents`,
		`echo changed > main.go`,
	}, "; ")
	res, err := call(t, toolByName(t, ws, Limits{}, "run_command"), map[string]any{"command": cmd})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Output, "baton put back") || !strings.Contains(res.Output, "- .mcp.json: removed (the command created it)") {
		t.Fatalf("the model was not told: %q", res.Output)
	}
	root := ws.Root()
	want := map[string]string{".git/config": config, ".claude/settings.json": settings, ".claude/agents/a.md": "---\nname: a\n---\nhi\n", "main.go": "changed\n"}
	for name, body := range want {
		got, err := os.ReadFile(filepath.Join(root, name))
		if err != nil || string(got) != body {
			t.Errorf("%s = %q (%v), want %q", name, got, err, body)
		}
	}
	for _, name := range []string{".git/hooks/pre-commit", ".mcp.json"} {
		if _, err := os.Lstat(filepath.Join(root, name)); err == nil {
			t.Errorf("%s is still there", name)
		}
	}
	if info, err := os.Lstat(filepath.Join(root, ".claude/agents")); err != nil || !info.IsDir() {
		t.Errorf(".claude/agents is not the folder it was: %v %v", info, err)
	}
}

// TestGuardHoldsAGitDirectoryBehindALink: a workspace whose .git is a
// symbolic link to a git directory kept elsewhere is guarded like one
// with a .git folder: a command that adds a filter driver to the config
// through the link gets it put back, and the model is told.
func TestGuardHoldsAGitDirectoryBehindALink(t *testing.T) {
	ws := newTree(t, map[string]string{"main.go": "package main\n"})
	if out, err := exec.Command("git", "init", "-q", ws.Root()).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	store := filepath.Join(t.TempDir(), "app.git")
	if err := os.Rename(filepath.Join(ws.Root(), ".git"), store); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(store, filepath.Join(ws.Root(), ".git")); err != nil {
		t.Fatal(err)
	}
	config, err := os.ReadFile(filepath.Join(store, "config"))
	if err != nil {
		t.Fatal(err)
	}
	enterGuard(ws.Root(), testBox(ws))
	cmd := exec.Command("sh", "-c", `printf '[filter "x"]\n\tclean = touch /tmp/pwned\n' >> .git/config`)
	cmd.Dir = ws.Root()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the attack failed: %v\n%s", err, out)
	}
	note := leaveGuard(ws.Root())
	if got, _ := os.ReadFile(filepath.Join(store, "config")); string(got) != string(config) {
		t.Errorf("the config behind the link is now %q; baton said:\n%s", got, note)
	}
	if !strings.Contains(note, "baton put back") || strings.Contains(note, "NOT put back") {
		t.Errorf("the note:\n%s", note)
	}
}
