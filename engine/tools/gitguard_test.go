package tools

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// gitRedirect is one way a command could make the person's next git
// command run a program it planted, outside the sandbox.
type gitRedirect struct {
	name string
	// setup prepares the repository at ws the way a person might have
	// it (a worktree, a submodule, an include); it returns the folder
	// the person runs git in.
	setup func(t *testing.T, ws string) string
	// attack is the command's script, run in ws; $E is a folder in the
	// temp directory holding the planted program ($E/fsm) and a planted
	// git directory ($E/git).
	attack string
	// commit: the person's next command is a commit (hooks run), not a
	// status (fsmonitor runs).
	commit bool
}

// plant writes the program the attacks plant, which touches the marker,
// and a git directory whose config runs it as fsmonitor and whose
// pre-commit hook is it.
const plant = `mkdir -p "$E/git/hooks" "$E/git/objects" "$E/git/refs/heads" && ` +
	`printf '#!/bin/sh\ntouch %s\n' > "$E/fsm" && chmod +x "$E/fsm" && cp "$E/fsm" "$E/git/hooks/pre-commit" && ` +
	`printf '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = %s\n' "$E/fsm" > "$E/git/config" && ` +
	`echo 'ref: refs/heads/main' > "$E/git/HEAD" && `

var gitRedirects = []gitRedirect{
	{name: "commondir rewritten", attack: `echo "$E/git" > .git/commondir`},
	{name: ".git replaced by a gitdir: file", attack: `mv .git .git-old && echo "gitdir: $E/git" > .git`},
	{name: ".git replaced by a link", attack: `mv .git .git-old && ln -s "$E/git" .git`},
	{name: ".git moved aside and re-made", attack: `mv .git .git-old && cp -r "$E/git" .git`},
	{name: "fsmonitor added to config", attack: `printf '[core]\n\tfsmonitor = %s\n' "$E/fsm" >> .git/config`},
	{name: "pre-commit hook planted", attack: `cp "$E/fsm" .git/hooks/pre-commit`, commit: true},
	{name: "hooks folder swapped for a link", attack: `rm -rf .git/hooks && ln -s "$E/git/hooks" .git/hooks`, commit: true},
	{name: "config.worktree planted", attack: `printf '[core]\n\tfsmonitor = %s\n' "$E/fsm" > .git/config.worktree`,
		setup: func(t *testing.T, ws string) string {
			git(t, ws, "config", "extensions.worktreeConfig", "true")
			return ws
		}},
	{name: "an included file rewritten", attack: `printf '[core]\n\tfsmonitor = %s\n' "$E/fsm" > .gitconfig.local`,
		setup: func(t *testing.T, ws string) string {
			git(t, ws, "config", "include.path", "../.gitconfig.local")
			must(t, os.WriteFile(filepath.Join(ws, ".gitconfig.local"), []byte("[user]\n\tname = me\n"), 0o644))
			return ws
		}},
	{name: "a hook in core.hooksPath", attack: `cp "$E/fsm" .githooks/pre-commit`, commit: true,
		setup: func(t *testing.T, ws string) string {
			must(t, os.MkdirAll(filepath.Join(ws, ".githooks"), 0o755))
			git(t, ws, "config", "core.hooksPath", ".githooks")
			return ws
		}},
	{name: "a linked worktree's commondir rewritten", attack: `echo "$E/git" > .git/worktrees/linked/commondir`,
		setup: func(t *testing.T, ws string) string {
			linked := filepath.Join(t.TempDir(), "linked")
			git(t, ws, "worktree", "add", "-q", "-b", "side", linked)
			return linked
		}},
	{name: "a submodule's config given an fsmonitor", attack: `printf '[core]\n\tfsmonitor = %s\n' "$E/fsm" >> .git/modules/sub/config`,
		setup: func(t *testing.T, ws string) string {
			must(t, os.MkdirAll(filepath.Join(ws, ".git", "modules"), 0o755))
			git(t, ws, "init", "-q", "--separate-git-dir", filepath.Join(ws, ".git", "modules", "sub"), filepath.Join(ws, "sub"))
			return filepath.Join(ws, "sub")
		}},
	{name: "a gitdir: file planted in a subfolder", attack: `echo "gitdir: $E/git" > src/.git`,
		setup: func(t *testing.T, ws string) string {
			must(t, os.MkdirAll(filepath.Join(ws, "src"), 0o755))
			must(t, os.WriteFile(filepath.Join(ws, "src", "a.go"), []byte("package src\n"), 0o644))
			return filepath.Join(ws, "src")
		}},
	// git status looks into every submodule the index names, wherever
	// it lies: one planted where the walk for .git does not look
	// (node_modules) and staged runs at the person's next status.
	{name: "a repository planted in node_modules and staged", attack: `git init -q node_modules/evil && ` +
		`git -C node_modules/evil -c user.name=a -c user.email=a@x commit -q --allow-empty -m x && ` +
		`git -C node_modules/evil config core.fsmonitor "$E/fsm" && git add node_modules/evil 2>/dev/null`},
	// git status looks into the submodules of a submodule too: a quiet
	// repository staged above must not carry a planted one below.
	{name: "a quiet repository staged in node_modules that names a planted one", attack: `id="-c user.name=a -c user.email=a@x" && ` +
		`git init -q node_modules/a/vendor/b && git -C node_modules/a/vendor/b $id commit -q --allow-empty -m x && ` +
		`git -C node_modules/a/vendor/b config core.fsmonitor "$E/fsm" && git init -q node_modules/a && ` +
		`git -C node_modules/a add vendor/b 2>/dev/null && git -C node_modules/a $id commit -q -m a && git add node_modules/a 2>/dev/null`},
	{name: "a repository planted in a submodule's node_modules and staged there", attack: `git init -q sub/node_modules/evil && ` +
		`git -C sub/node_modules/evil -c user.name=a -c user.email=a@x commit -q --allow-empty -m x && ` +
		`git -C sub/node_modules/evil config core.fsmonitor "$E/fsm" && git -C sub add node_modules/evil 2>/dev/null`,
		setup: func(t *testing.T, ws string) string {
			must(t, os.MkdirAll(filepath.Join(ws, ".git", "modules"), 0o755))
			git(t, ws, "init", "-q", "--separate-git-dir", filepath.Join(ws, ".git", "modules", "sub"), filepath.Join(ws, "sub"))
			git(t, filepath.Join(ws, "sub"), "-c", "user.name=p", "-c", "user.email=p@x", "commit", "-q", "--allow-empty", "-m", "sub")
			git(t, ws, "add", "sub")
			git(t, ws, "-c", "user.name=p", "-c", "user.email=p@x", "commit", "-q", "-m", "sub")
			return ws
		}},
	// A fresh repository is kept when git would run nothing from it;
	// signing with a key command is running something.
	{name: "a fresh repository in a subfolder that signs with a planted key command", commit: true,
		attack: `git init -q sub && git -C sub config commit.gpgSign true && git -C sub config gpg.format ssh && ` +
			`git -C sub config gpg.ssh.defaultKeyCommand "$E/fsm"`,
		setup: func(t *testing.T, ws string) string { return filepath.Join(ws, "sub") }},
	{name: "a submodule's .git file rewritten", attack: `echo "gitdir: $E/git" > sub/.git`,
		setup: func(t *testing.T, ws string) string {
			must(t, os.MkdirAll(filepath.Join(ws, ".git", "modules"), 0o755))
			git(t, ws, "init", "-q", "--separate-git-dir", filepath.Join(ws, ".git", "modules", "sub"), filepath.Join(ws, "sub"))
			return filepath.Join(ws, "sub")
		}},
}

// personGit runs git as the person would after the command: no sandbox,
// the person's identity, no user or system config of the machine.
func personGit(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=p", "GIT_AUTHOR_EMAIL=p@x", "GIT_COMMITTER_NAME=p", "GIT_COMMITTER_EMAIL=p@x")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// redirectRepo makes a repository with one commit, set up for r, and
// the evil folder and marker of one attack.
func redirectRepo(t *testing.T, r gitRedirect) (ws *Workspace, gitIn, script, marker string) {
	t.Helper()
	ws = gitWorkspace(t, func(root string) {
		git(t, root, "init", "-q", "-b", "main")
		must(t, os.WriteFile(filepath.Join(root, "main.go"), []byte("package main\n"), 0o644))
		git(t, root, "add", ".")
		git(t, root, "-c", "user.name=p", "-c", "user.email=p@x", "commit", "-q", "-m", "first")
	})
	gitIn = ws.Root()
	if r.setup != nil {
		gitIn = r.setup(t, ws.Root())
	}
	evil := t.TempDir()
	marker = filepath.Join(t.TempDir(), "pwned")
	script = "E=" + evil + "; " + fmt.Sprintf(plant, marker, "%s") + r.attack
	return ws, gitIn, script, marker
}

// personsNextGit runs what the person runs next and reports whether the
// planted program ran.
func personsNextGit(t *testing.T, r gitRedirect, dir, marker string) bool {
	t.Helper()
	if r.commit {
		_, _ = personGit(dir, "commit", "-q", "--allow-empty", "-m", "next")
	} else {
		_, _ = personGit(dir, "status")
	}
	_, err := os.Stat(marker)
	return err == nil
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestGitCannotBeRedirected is each redirection, done by a sandboxed
// run_command: afterwards the person's next git command runs nothing the
// command planted, and the repository is the one it was. The same script
// run unsandboxed does plant, so each case is a real attack.
func TestGitCannotBeRedirected(t *testing.T) {
	t.Parallel()
	if !sandbox.Available() {
		t.Skip("no Landlock here: " + sandbox.Unavailable())
	}
	for _, r := range gitRedirects {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			ws, gitIn, script, marker := redirectRepo(t, r)
			off := sandbox.Policy{Mode: sandbox.Off}
			if _, err := call(t, RunCommand(ws, Limits{}, off), map[string]any{"command": script}); err != nil {
				t.Fatal(err)
			}
			if !personsNextGit(t, r, gitIn, marker) {
				t.Fatal("unsandboxed, the attack did not plant (this case proves nothing)")
			}

			ws, gitIn, script, marker = redirectRepo(t, r)
			res, err := call(t, toolByName(t, ws, Limits{}, "run_command"), map[string]any{"command": script})
			if err != nil {
				t.Fatal(err)
			}
			if personsNextGit(t, r, gitIn, marker) {
				t.Fatalf("the person's next git command ran the planted program; the command said:\n%s", res.Output)
			}
			if dir, err := personGit(ws.Root(), "rev-parse", "--absolute-git-dir"); err != nil || strings.TrimSpace(dir) != filepath.Join(ws.Root(), ".git") {
				t.Errorf("git's directory is now %q (%v)", dir, err)
			}
			t.Log(res.Output)
			if strings.Contains(res.Output, "NOT put back") {
				t.Errorf("something was not put back:\n%s", res.Output)
			}
		})
	}
}

// TestGitRedirectsPutBack is the check after every command on its own,
// as where the kernel cannot hold the files (no mount namespace): each
// redirection is done in the workspace between the record and the check,
// and afterwards git runs nothing planted, and the note names exactly
// what was put back.
func TestGitRedirectsPutBack(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for _, r := range gitRedirects {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			ws, gitIn, script, marker := redirectRepo(t, r)
			box := testBox(ws)
			enterGuard(ws.Root(), box)
			cmd := exec.Command("sh", "-c", script)
			cmd.Dir = ws.Root()
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("the attack failed: %v\n%s", err, out)
			}
			note := leaveGuard(ws.Root())
			if personsNextGit(t, r, gitIn, marker) {
				t.Fatalf("the person's next git command ran the planted program; baton said:\n%s", note)
			}
			if !strings.HasPrefix(note, "baton put back") || strings.Contains(note, "NOT put back") {
				t.Errorf("the note:\n%s", note)
			}
			if dir, err := personGit(ws.Root(), "rev-parse", "--absolute-git-dir"); err != nil || strings.TrimSpace(dir) != filepath.Join(ws.Root(), ".git") {
				t.Errorf("git's directory is now %q (%v)", dir, err)
			}
			t.Log(note)
		})
	}
}

// TestGitRemovedIsReportedNotPutBack: where nothing pins .git, a command
// can delete it and plant its own; baton cannot bring the original back,
// moves the planted one aside so git runs nothing from it, and says that
// it could not put .git back rather than that it did.
func TestGitRemovedIsReportedNotPutBack(t *testing.T) {
	r := gitRedirect{attack: `rm -rf .git && cp -r "$E/git" .git`}
	ws, gitIn, script, marker := redirectRepo(t, r)
	enterGuard(ws.Root(), testBox(ws))
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = ws.Root()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the attack failed: %v\n%s", err, out)
	}
	note := leaveGuard(ws.Root())
	if personsNextGit(t, r, gitIn, marker) {
		t.Fatalf("the person's next git command ran the planted program; baton said:\n%s", note)
	}
	if !strings.Contains(note, ".git: NOT put back") || !strings.Contains(note, "moved to .git.baton-moved-") {
		t.Errorf("the note does not say .git is lost and where the planted one went:\n%s", note)
	}
}

// TestGitStillWorksInTheSandbox: what commands do with git every day
// still works with .git held: commit, branch, stash, and a `git init` in
// a folder that had no repository, which stays (git runs nothing from a
// fresh one). Nothing is reported put back.
func TestGitStillWorksInTheSandbox(t *testing.T) {
	t.Parallel()
	if !sandbox.Available() {
		t.Skip("no Landlock here: " + sandbox.Unavailable())
	}
	ws, _, _, _ := redirectRepo(t, gitRedirect{})
	id := "git -c user.name=m -c user.email=m@x "
	script := "echo change >> main.go && " + id + "commit -qam change && " + id + "checkout -q -b side && " +
		"echo more >> main.go && " + id + "stash -q && " + id + "stash pop -q && git status --short && git log --oneline | wc -l"
	res := mustCall(t, toolByName(t, ws, Limits{}, "run_command"), map[string]any{"command": script})
	if !strings.Contains(res.Output, "M main.go") || !strings.HasSuffix(strings.TrimSpace(strings.Split(res.Output, "\n[")[0]), "2") || strings.Contains(res.Output, "put back") {
		t.Fatalf("git in a sandboxed command:\n%s", res.Output)
	}
	plain := newTree(t, map[string]string{"a.txt": "a\n"})
	res = mustCall(t, toolByName(t, plain, Limits{}, "run_command"), map[string]any{"command": "git init -q -b main && " + id + "add . && " + id + "commit -qm first && echo done"})
	if !strings.Contains(res.Output, "done") || strings.Contains(res.Output, "put back") {
		t.Fatalf("git init in a sandboxed command:\n%s", res.Output)
	}
	if out, err := personGit(plain.Root(), "log", "--oneline"); err != nil || !strings.Contains(out, "first") {
		t.Fatalf("the repository the command made is gone: %v %s", err, out)
	}
}
