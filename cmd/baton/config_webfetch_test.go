package main

import (
	"github.com/seed-e4e525a6/baton/agenttypes"

	"strings"
	"testing"
)

func TestWebFetchAllowPrivateOnlyFromTheUser(t *testing.T) {
	cfg, err := newConfigWorld(t, "[web_fetch]\nallow_private = true\n", "").load(t, nil, nil)
	if err != nil || !cfg.WebFetch.AllowPrivate {
		t.Fatalf("user allow_private: %v %+v", err, cfg.WebFetch)
	}
	if setup := newSessionSetup(cfg, endpoint{}, agenttypes.NewRegistry(), t.TempDir(), nil, true); !setup.engine.WebFetch.AllowPrivate {
		t.Fatal("allow_private did not reach the engine")
	}
	cfg, err = newConfigWorld(t, "", "").load(t, nil, nil)
	if err != nil || cfg.WebFetch.AllowPrivate {
		t.Fatalf("default: %v %+v", err, cfg.WebFetch)
	}
	_, err = newConfigWorld(t, "[web_fetch]\nallow_privat = true\n", "").load(t, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "known in [web_fetch]: allow_private") {
		t.Fatalf("typo: %v", err)
	}
	_, err = newConfigWorld(t, "web_fetch = 1\n", "").load(t, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "a table ([web_fetch])") {
		t.Fatalf("not a table: %v", err)
	}
}

func TestSessionSetupLoadsCustomCommands(t *testing.T) {
	workspace, home := t.TempDir(), t.TempDir()
	writeFile(t, workspace+"/.claude/commands/git/commit.md", "---\ndescription: commit\n---\nCommit $ARGUMENTS")
	writeFile(t, home+"/.claude/commands/mine.md", "Mine")
	env := map[string]string{"HOME": home}
	setup := newSessionSetup(config{}, endpoint{}, agenttypes.NewRegistry(), workspace, env, false)
	if len(setup.commands) != 2 || setup.commands[0].Name != "git:commit" || setup.commands[1].Name != "mine" {
		t.Fatalf("commands %+v", setup.commands)
	}
	// baton -p "/mine" expands too.
	if headless := newSessionSetup(config{}, endpoint{}, agenttypes.NewRegistry(), workspace, env, true); len(headless.commands) != 2 {
		t.Fatalf("headless commands %+v", headless.commands)
	}
}

func TestAllowNamesTheNewTools(t *testing.T) {
	cfg, err := newConfigWorld(t, "", "").load(t, []string{"--allow", "web_fetch,todo_write"}, nil)
	if err != nil || strings.Join(cfg.Allow, ",") != "web_fetch,todo_write" {
		t.Fatalf("allow %v: %v", cfg.Allow, err)
	}
}
