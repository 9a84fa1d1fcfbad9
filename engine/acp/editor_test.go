package acp

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// A broken editor (terminals it cannot make, loses or cannot read, a
// buffer it will not write) ends the call with an error the model reads,
// never a hang; every terminal made is released.
func TestBrokenEditorTerminalsAreToolErrors(t *testing.T) {
	made := map[string]any{"terminalId": "t1"}
	cases := []struct {
		name    string
		answers map[string]any // by method: a result, or an error
		want    []string
	}{
		{"no terminal", map[string]any{"terminal/create": errors.New("terminals are disabled")},
			[]string{"the editor's terminal", "terminals are disabled"}},
		{"a terminal without an id", map[string]any{"terminal/create": map[string]any{}},
			[]string{"the editor made a terminal without an id"}},
		{"the terminal lost", map[string]any{"terminal/create": made, "terminal/wait_for_exit": errors.New("no such terminal")},
			[]string{"the editor's terminal", "no such terminal"}},
		{"its output unreadable", map[string]any{"terminal/create": made, "terminal/wait_for_exit": map[string]any{"exitCode": 0}, "terminal/output": errors.New("output gone")},
			[]string{"the editor's terminal", "output gone"}},
		{"killed by a signal", map[string]any{"terminal/create": made, "terminal/wait_for_exit": map[string]any{"exitCode": nil, "signal": "SIGKILL"},
			"terminal/output": map[string]any{"output": "half a build", "truncated": true}},
			[]string{"half a build", "signal: SIGKILL"}},
		{"the status only in the output", map[string]any{"terminal/create": made, "terminal/wait_for_exit": map[string]any{},
			"terminal/output": map[string]any{"output": "failing test", "exitStatus": map[string]any{"exitCode": 3}}},
			[]string{"failing test", "exit status 3"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, runOnce("make"))
			r.caps = map[string]any{"terminal": true}
			r.editor = func(method string, _ json.RawMessage) (any, error, bool) {
				switch a := c.answers[method].(type) {
				case error:
					return nil, a, true
				case nil:
					return nil, nil, strings.HasPrefix(method, "terminal/")
				default:
					return a, nil, true
				}
			}
			session := r.newSession()
			r.mustPrompt(session, "run it")
			results := toolResults(r.llm.Requests()[1])
			for _, want := range c.want {
				if len(results) != 1 || !strings.Contains(results[0], want) {
					t.Errorf("the model got %q; want it to say %q", results, want)
				}
			}
			created, _ := c.answers["terminal/create"].(map[string]any)
			_, madeOne := created["terminalId"]
			if want := map[bool]int{true: 1}[madeOne]; r.client.Requests("terminal/release") != want {
				t.Errorf("the terminal was released %d times, want %d", r.client.Requests("terminal/release"), want)
			}
		})
	}
}

// A turn cancelled while its command runs in the editor's terminal kills
// the command there, and releases the terminal.
func TestCancelKillsTheEditorsTerminal(t *testing.T) {
	r := newRig(t, runOnce("sleep 600"))
	r.caps = map[string]any{"terminal": true}
	waiting, killed := make(chan struct{}), make(chan struct{})
	var once sync.Once
	r.editor = func(method string, _ json.RawMessage) (any, error, bool) {
		switch method {
		case "terminal/create":
			return map[string]any{"terminalId": "t1"}, nil, true
		case "terminal/wait_for_exit":
			close(waiting)
			<-killed
			return map[string]any{"exitCode": nil, "signal": "SIGKILL"}, nil, true
		case "terminal/kill":
			once.Do(func() { close(killed) })
			return nil, nil, true
		case "terminal/output":
			return map[string]any{"output": ""}, nil, true
		case "terminal/release":
			return nil, nil, true
		}
		return nil, nil, false
	}
	session := r.newSession()
	stopped := make(chan string, 1)
	go func() {
		stop, err := r.prompt(session, "run it")
		if err != nil {
			t.Error(err)
		}
		stopped <- stop
	}()
	<-waiting
	r.client.Notify("session/cancel", map[string]any{"sessionId": session})
	if stop := <-stopped; stop != "cancelled" {
		t.Errorf("stopReason = %q, want cancelled", stop)
	}
	if r.client.Requests("terminal/kill") != 1 || r.client.Requests("terminal/release") != 1 {
		t.Errorf("the editor got %d kills and %d releases; want one of each", r.client.Requests("terminal/kill"), r.client.Requests("terminal/release"))
	}
}

// An editor that will not take an edit leaves the disk as it was, and
// the model is told why.
func TestEditTheEditorRefusesIsAToolError(t *testing.T) {
	r := newRig(t, editTwice)
	r.caps = map[string]any{"fs": map[string]any{"readTextFile": true, "writeTextFile": true}}
	r.editor = func(method string, _ json.RawMessage) (any, error, bool) {
		if method == "fs/write_text_file" {
			return nil, errors.New("the buffer is read-only"), true
		}
		return nil, nil, false
	}
	session := r.newSession()
	r.mustPrompt(session, "write the notes")
	if _, err := os.Stat(filepath.Join(r.ws, "notes.txt")); !os.IsNotExist(err) {
		t.Fatalf("the disk was written (stat: %v)", err)
	}
	results := toolResults(r.llm.Requests()[1])
	if len(results) != 1 || !strings.Contains(results[0], "the editor: ") || !strings.Contains(results[0], "the buffer is read-only") {
		t.Errorf("the model got %q", results)
	}
	var failed bool
	for _, u := range toolUpdates(r.client.Updates()) {
		failed = failed || u.Status == "failed"
	}
	if !failed {
		t.Error("the editor was not shown the edit failing")
	}
}
