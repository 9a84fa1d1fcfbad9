package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sandbox"
)

// walkEnviron is a command that reads /proc/PID/environ of its shell
// and of every ancestor up to init, baton's included, looking for the
// key; it builds the key at run time so its own text does not hold it.
const walkEnviron = `k=sk-proc; k=$k-environ-4242; p=$$; n=0
while [ "$p" -gt 1 ]; do
  if tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -q -- "$k"; then echo "LEAK in $p"; fi
  n=$((n+1)); p=$(sed 's/.*) [A-Za-z] \([0-9]*\).*/\1/' /proc/$p/stat)
done
echo "walked $n"`

// TestKeyNotInAnyEnviron runs baton as its own process with the key in
// its environment, sandbox on and off, and has the model run a command
// that reads the environment of every process above it: none may hold
// the key, baton's own included, since baton overwrites the key in its
// initial environment (or, where it cannot, re-executes itself without
// it). The JSON result says what the commands ran under.
func TestKeyNotInAnyEnviron(t *testing.T) {
	for _, extra := range [][]string{nil, {"--no-sandbox"}} {
		srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
			if r.Body.Messages[len(r.Body.Messages)-1].Role == "user" {
				args, _ := json.Marshal(map[string]string{"command": walkEnviron})
				w.ToolCalls(llmtest.Call{ID: "c1", Name: "run_command", Args: string(args)})
				return
			}
			w.Text("done")
		})
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		args := append([]string{"--yolo", "-p", "read the environments", "--output-format", "json"}, extra...)
		cmd := exec.Command(self, "-test.run=^$")
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_STATE_HOME=", "OPENAI_BASE_URL="+srv.URL,
			"OPENAI_API_KEY=sk-proc-environ-4242", childArgsEnv+"="+strings.Join(args, "\x1f"))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: baton failed: %v\n%s", extra, err, out)
		}
		var tool string
		for _, m := range srv.Requests()[len(srv.Requests())-1].Body.Messages {
			if m.Role == "tool" {
				tool = m.Content
			}
		}
		if strings.Contains(tool, "LEAK") || !strings.Contains(tool, "walked") {
			t.Errorf("%v: the command found the key: %q", extra, tool)
		}
		var doc struct {
			Sandbox string `json:"sandbox"`
		}
		want := "workspace-write"
		if !sandbox.Available() {
			want = "unavailable"
		}
		if extra != nil {
			want = "off"
		}
		if err := json.Unmarshal(out, &doc); err != nil || doc.Sandbox != want {
			t.Errorf("%v: json sandbox = %q (%v), want %q in %s", extra, doc.Sandbox, err, want, out)
		}
	}
}

// TestReceiveKey hands a key over a real pipe the way baton receives it
// when scrubbing failed and it re-executed itself: back in run's environment, gone from the process's.
func TestReceiveKey(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteString("sk-piped"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	defer r.Close()
	fd, err := syscall.Dup(int(r.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(keyFDVar, "x")
	env := receiveKey([]string{"A=1", keyFDVar + "=" + strconv.Itoa(fd)}, strconv.Itoa(fd))
	if strings.Join(env, " ") != "A=1 OPENAI_API_KEY=sk-piped" {
		t.Fatalf("environment after the hand-over: %q", env)
	}
	if _, set := os.LookupEnv(keyFDVar); set {
		t.Fatal(keyFDVar + " stayed in the process environment")
	}
}

// TestKeyHiddenOnEveryCommandPath: every command line that can reach a
// turn, the TUI or an MCP server hides the key; only those that print and
// exit skip hiding it.
func TestKeyHiddenOnEveryCommandPath(t *testing.T) {
	hides := [][]string{
		nil, {"-p", "hi"}, {"-p", "-"}, {"--continue"}, {"--resume", "20250101-1200-abcd"},
		{"--demo"}, {"--yolo", "-p", "x"}, {"--trust"}, {"--mcp-config", "x.json"}, {"--theme", "light"},
	}
	for _, args := range hides {
		if !parseCommandLine(args).mayRunCommands() {
			t.Errorf("baton %q skips hiding the key, but it can run commands", args)
		}
	}
	skips := [][]string{
		{"--version"}, {"--help"}, {"-h"}, {"sessions"}, {"trust"}, {"trust", "--list"}, {"untrust", "/tmp"},
		{"--no-such-flag"}, {"stray"}, {"-p", "x", "--version"},
	}
	for _, args := range skips {
		if parseCommandLine(args).mayRunCommands() {
			t.Errorf("baton %q hides the key, but it only prints and exits", args)
		}
	}
}
