package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// readCall is a call of a file tool with JSON arguments.
func readCall(tool, args string) llmtest.Call {
	return llmtest.Call{Name: tool, Args: args}
}

// TestReadDenyHoldsThroughLinksAndSearches is the attack of issue 23:
// with deny read_file(.env) and deny read_file(secrets/**), a link in
// the workspace (`ln -s .env innocent.txt`), a linked folder, grep over
// the tree and the listings must not hand the model the secret, even in
// yolo mode.
func TestReadDenyHoldsThroughLinksAndSearches(t *testing.T) {
	calls := []llmtest.Call{
		readCall("read_file", `{"path":"innocent.txt"}`),
		readCall("read_file", `{"path":"vault/key.txt"}`),
		readCall("grep", `{"pattern":"SECRET"}`),
		readCall("grep", `{"pattern":"SECRET","path":"innocent.txt"}`),
		readCall("list_files", `{"depth":3}`),
		readCall("find_files", `{"pattern":"**"}`),
		readCall("read_file", `{"path":"notes.txt"}`),
		readCall("list_files", `{"path":"vault"}`),
	}
	s, srv := newTestSession(t, stepScript(calls...), func(c *Config) {
		c.Rules = []event.PermissionRule{{Kind: "deny", Rule: "read_file(.env)"}, {Kind: "deny", Rule: "read_file(secrets/**)"}}
	})
	ws := s.Workspace()
	writeFile(t, ws, ".env", "API_KEY=SECRET-1\n")
	writeFile(t, ws, "secrets/key.txt", "SECRET-2\n")
	writeFile(t, ws, "notes.txt", "no SECRET here, only its name\n")
	for link, target := range map[string]string{"innocent.txt": ".env", "vault": "secrets", "deep/alias.txt": "../secrets/key.txt"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(ws, link)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	runTurn(t, s, "go", nil)
	msgs := toolMessages(srv.Requests()[len(srv.Requests())-1])
	if len(msgs) != len(calls) {
		t.Fatalf("%d results for %d calls", len(msgs), len(calls))
	}
	for i, m := range msgs {
		if strings.Contains(m, "SECRET-") {
			t.Errorf("call %d (%s) leaked the secret: %q", i, calls[i].Args, m)
		}
	}
	contains(t, "read through a link", msgs[0], "denied by the rule deny read_file(.env)")
	contains(t, "read through a linked folder", msgs[1], "denied by the rule deny read_file(secrets/**)")
	contains(t, "grep over the tree", msgs[2], "notes.txt:1: no SECRET here")
	contains(t, "grep says what it left out", msgs[2], "left out by the rule deny read_file(.env)")
	contains(t, "grep says what it left out", msgs[2], "left out by the rule deny read_file(secrets/**)")
	contains(t, "grep of a link", msgs[3], "denied by the rule deny read_file(.env)")
	for i := 4; i <= 5; i++ {
		for _, name := range []string{".env", "innocent.txt", "key.txt", "alias.txt"} {
			if strings.Contains(listed(msgs[i]), name) {
				t.Errorf("call %d lists %s: %q", i, name, msgs[i])
			}
		}
		contains(t, fmt.Sprint("listing ", i), msgs[i], "notes.txt")
		contains(t, fmt.Sprint("listing ", i), msgs[i], "left out by the rule")
	}
	contains(t, "an allowed file", msgs[6], "only its name")
	contains(t, "a linked denied folder", msgs[7], "denied by the rule deny read_file(secrets/**)")
}

// listed is a listing without its notes, which name rules, not files.
func listed(out string) string {
	var keep []string
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "[note:") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}

// TestAskReadRuleKeepsGrepOut: grep cannot ask about each file, so what
// an ask rule covers is left out of its matches and read_file asks.
func TestAskReadRuleKeepsGrepOut(t *testing.T) {
	s, srv := newTestSession(t, stepScript(readCall("grep", `{"pattern":"TOKEN"}`), readCall("list_files", `{}`), readCall("read_file", `{"path":"private/t.txt"}`)),
		func(c *Config) {
			c.Mode = permission.Headless
			c.Rules = []event.PermissionRule{{Kind: "ask", Rule: "read_file(private/**)"}}
		})
	writeFile(t, s.Workspace(), "private/t.txt", "TOKEN=1\n")
	writeFile(t, s.Workspace(), "public.txt", "TOKEN in the docs\n")
	runTurn(t, s, "go", nil)
	msgs := toolMessages(srv.Requests()[len(srv.Requests())-1])
	if strings.Contains(msgs[0], "TOKEN=1") {
		t.Errorf("grep read a file an ask rule covers: %q", msgs[0])
	}
	contains(t, "grep", msgs[0], "public.txt:1:")
	contains(t, "grep", msgs[0], "left out by the rule ask read_file(private/**)")
	contains(t, "list_files shows names an ask rule covers", msgs[1], "private/t.txt")
	contains(t, "read_file asks", msgs[2], "headless run cannot ask")
}

// TestDenyRuleSeesThroughWrappers: the spellings reach the engine as
// well as the rules package: each is refused before anything runs.
func TestDenyRuleSeesThroughWrappers(t *testing.T) {
	cmds := []string{"timeout 5 rm -f victim", "bash -c 'rm -f victim'", "$(echo rm) -f victim", "git -C . push"}
	var calls []llmtest.Call
	for _, c := range cmds {
		calls = append(calls, command(c))
	}
	s, srv := newTestSession(t, stepScript(calls...), func(c *Config) {
		c.Rules = []event.PermissionRule{{Kind: "deny", Rule: "run_command(rm:*)"}, {Kind: "deny", Rule: "run_command(git push:*)"}}
	})
	writeFile(t, s.Workspace(), "victim", "still here\n")
	runTurn(t, s, "go", nil)
	msgs := toolMessages(srv.Requests()[len(srv.Requests())-1])
	for i, msg := range msgs {
		contains(t, cmds[i], msg, "denied by the rule deny")
	}
	contains(t, "an opaque program says why", msgs[2], "only known when it runs")
	if _, err := os.Stat(filepath.Join(s.Workspace(), "victim")); err != nil {
		t.Fatalf("a denied rm ran: %v", err)
	}
}
