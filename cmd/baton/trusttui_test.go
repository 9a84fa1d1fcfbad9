package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/trust"
)

// /trust records the folder on the same list `baton trust` writes (its
// real path, a link resolved), lets the folder's waiting MCP servers
// start, and says when the settings apply; a second /trust says it is
// already trusted.
func TestTrustFromTheTUIRecordsTheFolder(t *testing.T) {
	env := map[string]string{"HOME": t.TempDir(), "XDG_STATE_HOME": t.TempDir()}
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "app")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	inv := &invocation{env: env, workspace: link, trust: trust.Lookup(link, env, false)}
	servers := &mcpRun{}
	trustNow := trustFromTUI(inv, servers)
	if trustNow == nil {
		t.Fatal("no /trust with a trust list")
	}
	said, err := trustNow()
	if err != nil {
		t.Fatal(err)
	}
	resolved, _ := filepath.EvalSymlinks(real)
	if !strings.Contains(said, "trusted: "+resolved) || !strings.Contains(said, "next start") {
		t.Errorf("said %q", said)
	}
	if !trust.Lookup(link, env, false).Trusted || !trust.Lookup(real, env, false).Trusted {
		t.Error("the folder is not on the trust list")
	}
	if !servers.trusted.Load() {
		t.Error("the folder's MCP servers still wait for a card")
	}
	if again, _ := trustNow(); !strings.Contains(again, "already trusted") {
		t.Errorf("a second /trust said %q", again)
	}
	if trustFromTUI(&invocation{env: map[string]string{}, workspace: real, trust: trust.Lookup(real, map[string]string{}, false)}, nil) != nil {
		t.Error("/trust offered without a trust list")
	}
}
