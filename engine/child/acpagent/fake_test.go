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
			version := 1
			if mode == "newer" {
				version = 2
			}
			f.reply(m.ID, map[string]any{"protocolVersion": version, "agentCapabilities": map[string]any{},
				"authMethods": []any{map[string]any{"id": "google", "name": "Log in with Google"}}})
		case "session/new":
			var p struct{ Cwd string }
			_ = json.Unmarshal(m.Params, &p)
			f.cwd = p.Cwd
			switch mode {
			case "signed-out":
				f.send(map[string]any{"id": m.ID, "error": map[string]any{"code": -32000, "message": "Authentication required"}})
				continue
			case "no-session":
				f.reply(m.ID, map[string]any{})
				continue
			}
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
	if _, set := params["sessionId"]; !set {
		params["sessionId"] = "s1"
	}
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
	case "sloppy":
		f.sloppy(id)
		return
	case "max_tokens", "refusal", "max_turn_requests", "teleported":
		f.say("got partway")
		f.reply(id, map[string]any{"stopReason": f.mode})
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

// allowOrReject are the options of most permission requests.
var allowOrReject = []any{map[string]any{"optionId": "yes", "name": "Allow", "kind": "allow_once"}, map[string]any{"optionId": "no", "name": "Reject", "kind": "reject_once"}}

// sloppy is an agent that sends what real agents send at their edges
// (kinds baton has no tool for, commands as lists, updates out of turn)
// and what a broken or hostile one would (updates baton cannot read,
// requests for other sessions, reads of FIFOs and binaries), and reports
// what baton answered.
func (f *fake) sloppy(id json.RawMessage) {
	f.update(map[string]any{"sessionUpdate": "agent_thought_chunk", "content": map[string]any{"type": "text", "text": "considering"}})
	f.update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "image", "data": "AAAA"}})
	f.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": 7})
	f.send(map[string]any{"method": "session/update", "params": map[string]any{"sessionId": "s2", "update": map[string]any{
		"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "from another session"}}}})
	f.send(map[string]any{"method": "session/update", "params": "not an object"})
	for i, kind := range []string{"search", "fetch", "", "think\nhard"} {
		f.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": fmt.Sprint("k", i), "title": "call " + fmt.Sprint(i), "kind": kind, "status": "pending"})
	}
	f.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "ghost", "status": "completed"})
	f.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "k0", "status": "in_progress"})
	f.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "k0", "status": "completed",
		"content": []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": "found 3 matches"}}}})
	f.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "k1", "status": "failed", "content": "not a list"})
	f.update(map[string]any{"sessionUpdate": "plan", "entries": []any{map[string]any{"content": "wait on review", "priority": "low", "status": "blocked"}}})
	obs := map[string]string{}
	ask := func(name string, toolCall map[string]any, options []any) {
		obs[name] = f.call("session/request_permission", map[string]any{"toolCall": toolCall, "options": options})
	}
	ask("command list", map[string]any{"toolCallId": "p1", "title": "Push", "kind": "execute", "rawInput": map[string]any{"command": []any{"git", "push", 3}}}, allowOrReject)
	ask("command args", map[string]any{"toolCallId": "p2", "title": "Build", "kind": "execute", "rawInput": map[string]any{"cmd": "make", "args": []any{"-j", "4"}}}, allowOrReject)
	ask("fetch", map[string]any{"toolCallId": "p3", "title": "Fetch", "kind": "fetch", "rawInput": map[string]any{"uri": "https://example.com/doc"}}, allowOrReject)
	ask("other", map[string]any{"toolCallId": "p4", "title": "Ponder the design\nat length", "kind": "think"}, allowOrReject)
	ask("no allow option", map[string]any{"toolCallId": "p5", "title": "ls", "kind": "execute"}, []any{map[string]any{"optionId": "no", "name": "Reject", "kind": "reject_once"}})
	obs["other session"] = f.call("session/request_permission", map[string]any{"sessionId": "s2", "toolCall": map[string]any{"toolCallId": "p6", "kind": "read"}, "options": allowOrReject})
	obs["bad permission"] = f.call("session/request_permission", map[string]any{"toolCall": 5})
	obs["bad read"] = f.call("fs/read_text_file", map[string]any{"path": 5})
	obs["bad write"] = f.call("fs/write_text_file", map[string]any{"path": "x.txt", "content": 5})
	obs["lines"] = f.call("fs/read_text_file", map[string]any{"path": filepath.Join(f.cwd, "three.txt"), "line": 2, "limit": 1})
	obs["from line"] = f.call("fs/read_text_file", map[string]any{"path": filepath.Join(f.cwd, "three.txt"), "line": 3})
	obs["folder"] = f.call("fs/read_text_file", map[string]any{"path": filepath.Join(f.cwd, "sub")})
	obs["fifo"] = f.call("fs/read_text_file", map[string]any{"path": filepath.Join(f.cwd, "pipe")})
	obs["binary"] = f.call("fs/read_text_file", map[string]any{"path": filepath.Join(f.cwd, "blob.bin")})
	obs["missing"] = f.call("fs/read_text_file", map[string]any{"path": filepath.Join(f.cwd, "nowhere.txt")})
	obs["outside write"] = f.call("fs/write_text_file", map[string]any{"path": "/etc/passwd", "content": "x"})
	report, _ := json.Marshal(obs)
	f.say(string(report))
	f.reply(id, map[string]any{"stopReason": "end_turn"})
}
