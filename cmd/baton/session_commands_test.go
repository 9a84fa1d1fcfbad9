package main

import "testing"

func TestSessionSetupLoadsCustomCommandsForTheTUI(t *testing.T) {
	workspace, home := t.TempDir(), t.TempDir()
	writeFile(t, workspace+"/.claude/commands/git/commit.md", "---\ndescription: commit\n---\nCommit $ARGUMENTS")
	writeFile(t, home+"/.claude/commands/mine.md", "Mine")
	env := map[string]string{"HOME": home}
	setup := newSessionSetup(config{}, endpoint{}, workspace, env, false)
	if len(setup.commands) != 2 || setup.commands[0].Name != "git:commit" || setup.commands[1].Name != "mine" {
		t.Fatalf("commands %+v", setup.commands)
	}
	if headless := newSessionSetup(config{}, endpoint{}, workspace, env, true); len(headless.commands) != 0 {
		t.Fatal("a headless run has no use for slash commands")
	}
}
