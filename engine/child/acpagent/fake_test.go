package acpagent

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// fakeEnv names the behaviour of the test binary started as an ACP
// agent: a scripted agent written for these tests, good or hostile.
const fakeEnv = "ACPAGENT_FAKE"

// fakeAgent is a scripted ACP agent on stdio; it returns its exit code.
func fakeAgent(mode string) int {
	f := &fake{in: bufio.NewScanner(os.Stdin), out: bufio.NewWriter(os.Stdout), mode: mode}
	f.in.Buffer(make([]byte, 1<<20), 16<<20)
	for {
		m, ok := f.read()
		if !ok {
			return 0
		}
		switch m.Method {
		case "initialize":
			if mode == "silent" {
				continue
			}
			if mode == "garbage" {
				for i := 0; i < 20; i++ {
					f.line("this is not JSON-RPC")
				}
				f.line(`{"jsonrpc":"2.0","method":"session/update","params":{"pad":"` + strings.Repeat("x", maxMessageBytes) + `"}}`)
				continue
			}
			f.reply(m.ID, map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}, "authMethods": []any{}})
		case "session/new":
			var p struct{ Cwd string }
			_ = json.Unmarshal(m.Params, &p)
			f.cwd = p.Cwd
			f.reply(m.ID, map[string]any{"sessionId": "s1"})
		case "session/prompt":
			if mode == "steer" {
				f.turn(m)
				continue
			}
			f.prompt(m.ID)
			if mode == "stubborn" {
				select {} // deaf to cancel and to its input closing
			}
		case "session/cancel":
			_ = os.WriteFile(filepath.Join(f.cwd, "cancel-received"), nil, 0o644)
			if f.pending != nil {
				f.reply(f.pending, map[string]any{"stopReason": "cancelled"})
				f.pending = nil
			}
		}
	}
}

type fake struct {
	in      *bufio.Scanner
	out     *bufio.Writer
	mode    string
	cwd     string
	nextID  int
	pending json.RawMessage
	turns   int
}

type fakeMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func (f *fake) read() (fakeMessage, bool) {
	if !f.in.Scan() {
		return fakeMessage{}, false
	}
	var m fakeMessage
	_ = json.Unmarshal(f.in.Bytes(), &m)
	return m, true
}

func (f *fake) line(s string) {
	f.out.WriteString(s + "\n")
	f.out.Flush()
}

func (f *fake) send(m map[string]any) {
	m["jsonrpc"] = "2.0"
	data, _ := json.Marshal(m)
	f.line(string(data))
}

func (f *fake) reply(id json.RawMessage, result any) {
	f.send(map[string]any{"id": id, "result": result})
}

func (f *fake) update(u map[string]any) {
	f.send(map[string]any{"method": "session/update", "params": map[string]any{"sessionId": "s1", "update": u}})
}

func (f *fake) say(text string) {
	f.update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": text}})
}

// call sends a request to baton and waits for its answer: the result,
// or "error: …".
func (f *fake) call(method string, params map[string]any) string {
	f.nextID++
	params["sessionId"] = "s1"
	f.send(map[string]any{"id": f.nextID, "method": method, "params": params})
	for {
		m, ok := f.read()
		if !ok {
			os.Exit(0)
		}
		if m.Method == "session/cancel" {
			continue
		}
		if string(m.ID) == fmt.Sprint(f.nextID) && m.Method == "" {
			if m.Error != nil {
				return "error: " + m.Error.Message
			}
			return string(m.Result)
		}
	}
}

// prompt runs the turn the mode scripts.
func (f *fake) prompt(id json.RawMessage) {
	switch f.mode {
	case "crash":
		f.say("about to fail")
		fmt.Fprintln(os.Stderr, "boom: no key configured")
		os.Exit(3)
	case "stubborn", "cancellable":
		f.say("working")
		f.pending = id
		return
	case "busy":
		f.say("working")
		for i := 1; i <= 5; i++ {
			f.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": fmt.Sprint("r", i), "title": "Read a file", "kind": "read", "status": "pending"})
		}
		f.pending = id
		return
	}
	f.say("looking around")
	out := filepath.Join(f.cwd, "out.txt")
	f.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t1", "title": "Write out.txt", "kind": "edit", "status": "pending",
		"locations": []any{map[string]any{"path": out}}})
	obs := map[string]string{}
	diff := []any{map[string]any{"type": "diff", "path": out, "oldText": nil, "newText": "hello\n"}}
	obs["edit"] = f.call("session/request_permission", map[string]any{
		"toolCall": map[string]any{"toolCallId": "t1", "title": "Write out.txt", "kind": "edit", "locations": []any{map[string]any{"path": out}}, "content": diff},
		"options":  []any{map[string]any{"optionId": "yes", "name": "Allow", "kind": "allow_once"}, map[string]any{"optionId": "no", "name": "Reject", "kind": "reject_once"}}})
	obs["write"] = f.call("fs/write_text_file", map[string]any{"path": out, "content": "hello\n"})
	obs["write again"] = f.call("fs/write_text_file", map[string]any{"path": out, "content": "twice\n"})
	obs["read"] = f.call("fs/read_text_file", map[string]any{"path": out})
	obs["read outside"] = f.call("fs/read_text_file", map[string]any{"path": "/etc/hostname"})
	obs["read dotdot"] = f.call("fs/read_text_file", map[string]any{"path": filepath.Join(f.cwd, "..", "secret.txt")})
	obs["read symlink"] = f.call("fs/read_text_file", map[string]any{"path": filepath.Join(f.cwd, "escape")})
	obs["read denied"] = f.call("fs/read_text_file", map[string]any{"path": filepath.Join(f.cwd, ".env")})
	obs["write git"] = f.call("fs/write_text_file", map[string]any{"path": filepath.Join(f.cwd, ".git", "hooks", "pre-commit"), "content": "evil"})
	obs["run"] = f.call("session/request_permission", map[string]any{
		"toolCall": map[string]any{"toolCallId": "t2", "title": "`rm -rf build`", "kind": "execute", "rawInput": map[string]any{"command": "rm -rf build"}},
		"options":  []any{map[string]any{"optionId": "yes", "name": "Allow", "kind": "allow_once"}, map[string]any{"optionId": "no", "name": "Reject", "kind": "reject_once"}}})
	obs["terminal"] = f.call("terminal/create", map[string]any{"command": "ls"})
	for _, name := range []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "FAKE_OWN_SETTING"} {
		obs["env "+name] = os.Getenv(name)
	}
	f.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "t1", "status": "completed", "content": diff})
	f.update(map[string]any{"sessionUpdate": "plan", "entries": []any{map[string]any{"content": "write out.txt", "priority": "high", "status": "completed"}}})
	report, _ := json.Marshal(obs)
	f.say(string(report))
	f.reply(id, map[string]any{"stopReason": "end_turn"})
}

// turn answers each prompt with its own text; the first asks about a
// command first, which is when the test sends its message.
func (f *fake) turn(m fakeMessage) {
	var p struct {
		Prompt []struct{ Text string }
	}
	_ = json.Unmarshal(m.Params, &p)
	f.turns++
	if f.turns == 1 {
		f.call("session/request_permission", map[string]any{
			"toolCall": map[string]any{"toolCallId": "t1", "title": "echo hi", "kind": "execute", "rawInput": map[string]any{"command": "echo hi"}},
			"options":  []any{map[string]any{"optionId": "yes", "name": "Allow", "kind": "allow_once"}}})
	}
	f.say(fmt.Sprintf("turn %d: %s", f.turns, p.Prompt[0].Text))
	f.reply(m.ID, map[string]any{"stopReason": "end_turn", "usage": map[string]any{"totalTokens": 300, "inputTokens": 250, "outputTokens": 50}})
}
