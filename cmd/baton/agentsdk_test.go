package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// asBatonEnv, when set, makes the test binary be baton with its own
// command line, so the Claude Agent SDK can start it by path with the
// flags it passes Claude Code.
const asBatonEnv = "BATON_TEST_AS_BATON"

// agentSDKDir holds the npm packages of the protocol tests (package.json
// and package-lock.json; `npm ci` there installs them), as an absolute
// path: the tests change into workspaces of their own.
var agentSDKDir = func() string {
	dir, _ := filepath.Abs(filepath.Join("testdata", "agentsdk"))
	return dir
}()

// needNode returns node's path once the SDK's packages are installed. A
// developer without them skips; CI, which installs them, fails instead.
func needNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(agentSDKDir, "node_modules", "@anthropic-ai", "claude-agent-sdk", "package.json"))
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("node and the Agent SDK are needed in CI (npm ci in %s): %v", agentSDKDir, err)
		}
		t.Skipf("node or the Claude Agent SDK is missing (npm ci in %s): %v", agentSDKDir, err)
	}
	return node
}

// delegatingTurn scripts a turn that uses a tool and a sub-agent: the
// main agent lists the Go files and delegates a look around in one
// message; the child lists them too and reports; the main agent answers
// from both results. /greet's prompt is answered on its own.
func delegatingTurn(systems *[]string, mu *sync.Mutex) llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		mu.Lock()
		*systems = append(*systems, r.System())
		mu.Unlock()
		switch {
		case strings.Contains(r.LastUser(), "Say hello to Ada"):
			w.Text("Hello, Ada.")
		case !strings.Contains(r.System(), "You are baton"):
			if !r.HasToolResult("main.go") {
				w.ToolCalls(llmtest.Call{ID: "child_find", Name: "find_files", Args: `{"pattern":"*.go"}`})
				return
			}
			w.Text("The child saw main.go.")
		case !r.HasToolResult("util/util.go"):
			w.ToolCalls(llmtest.Call{ID: "find_1", Name: "find_files", Args: `{"pattern":"**/*.go"}`},
				llmtest.Call{ID: "task_1", Name: "task", Args: `{"description":"look around","prompt":"Look at the Go files.","subagent_type":"explore"}`})
		default:
			w.Text("Found main.go and util/util.go.")
		}
	}
}

// sdkRun is what drive.mjs reports.
type sdkRun struct {
	Messages []map[string]any `json:"messages"`
	Answers  map[string]any   `json:"answers"`
	Errors   []string         `json:"errors"`
	Stderr   string           `json:"stderr"`
}

// driveWithSDK runs drive.mjs in a workspace with two Go files and a
// custom command, against srv.
func driveWithSDK(t *testing.T, node, mode string, srv *llmtest.Server) sdkRun {
	t.Helper()
	ws, home := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(ws, "main.go"), "package main\n")
	writeFile(t, filepath.Join(ws, "util", "util.go"), "package util\n")
	writeFile(t, filepath.Join(ws, ".claude", "commands", "greet.md"), "---\ndescription: Greet someone\n---\nSay hello to $ARGUMENTS.")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(agentSDKDir, "drive.mjs")
	arg, _ := json.Marshal(map[string]string{"exe": self, "cwd": ws, "mode": mode})
	cmd := exec.CommandContext(t.Context(), node, script, string(arg))
	cmd.Dir = filepath.Dir(script)
	cmd.Env = append(os.Environ(), asBatonEnv+"=1", "HOME="+home, "XDG_STATE_HOME=", "XDG_CONFIG_HOME=",
		"OPENAI_BASE_URL="+srv.URL, "OPENAI_API_KEY=sk-test")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	var res sdkRun
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("drive.mjs printed no summary: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if len(res.Errors) > 0 {
		t.Fatalf("the SDK failed:\n%s\nbaton's stderr: %s", strings.Join(res.Errors, "\n"), res.Stderr)
	}
	return res
}

// blocks returns the content blocks of an assistant or user message.
func blocks(m map[string]any) []map[string]any {
	msg, _ := m["message"].(map[string]any)
	list, _ := msg["content"].([]any)
	var out []map[string]any
	for _, b := range list {
		if block, ok := b.(map[string]any); ok {
			out = append(out, block)
		}
	}
	return out
}

// TestClaudeAgentSDKDrivesBaton: the official Claude Agent SDK starts
// baton as its Claude Code executable, sends a prompt, and reads the
// init message, the answer, the main agent's tool use with its result,
// and the sub-agent's messages, marked with the task call that started
// them.
func TestClaudeAgentSDKDrivesBaton(t *testing.T) {
	t.Parallel()
	node := needNode(t)
	var (
		mu      sync.Mutex
		systems []string
	)
	srv := llmtest.NewServer(t, delegatingTurn(&systems, &mu))
	res := driveWithSDK(t, node, "single", srv)
	var (
		init, result     map[string]any
		toolUse, taskUse bool
		childMessages    int
		answer           string
	)
	for _, m := range res.Messages {
		switch m["type"] {
		case "system":
			if m["subtype"] == "init" {
				init = m
			}
		case "result":
			result = m
		case "assistant", "user":
			parent, _ := m["parent_tool_use_id"].(string)
			if parent != "" {
				if parent != "task_1" {
					t.Errorf("a child's message names parent %q, want the task call task_1", parent)
				}
				childMessages++
				continue
			}
			for _, b := range blocks(m) {
				switch {
				case b["type"] == "tool_use" && b["name"] == "find_files":
					input, _ := b["input"].(map[string]any)
					toolUse = input["pattern"] == "**/*.go"
				case b["type"] == "tool_use" && b["name"] == "task":
					taskUse = b["id"] == "task_1"
				case b["type"] == "text" && m["type"] == "assistant":
					answer, _ = b["text"].(string)
				}
			}
		}
	}
	if init == nil || init["cwd"] == "" || init["model"] != "llmtest-model" || init["permissionMode"] != "default" {
		t.Fatalf("init %v", init)
	}
	tools, _ := init["tools"].([]any)
	if !slices.Contains(tools, any("find_files")) || !slices.Contains(tools, any("task")) {
		t.Errorf("init tools %v", tools)
	}
	if cmds, _ := init["slash_commands"].([]any); !slices.Contains(cmds, any("greet")) {
		t.Errorf("init slash_commands %v", cmds)
	}
	if !toolUse || !taskUse || childMessages < 3 {
		t.Errorf("tool use %v, task use %v, %d child messages, want the find_files and task calls and the child's prompt, call, result and text",
			toolUse, taskUse, childMessages)
	}
	if answer != "Found main.go and util/util.go." || result == nil || result["result"] != answer || result["subtype"] != "success" ||
		result["session_id"] != init["session_id"] {
		t.Errorf("answer %q, result %v", answer, result)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(systems[0], "You are baton") || !strings.HasSuffix(systems[0], "Always answer in English.") {
		t.Errorf("the SDK's appended system prompt did not reach the main agent:\n%s", systems[0])
	}
}

// TestClaudeAgentSDKStreamsPrompts: the SDK's streaming input, as a chat
// front end uses it: two prompts, one run and one result each, in one
// baton process; control requests are answered (commands and agents
// listed, the model switched, a mode baton has not refused with a
// reason), and the second prompt calls a custom slash command.
func TestClaudeAgentSDKStreamsPrompts(t *testing.T) {
	t.Parallel()
	node := needNode(t)
	var (
		mu      sync.Mutex
		systems []string
	)
	srv := llmtest.NewServer(t, delegatingTurn(&systems, &mu))
	res := driveWithSDK(t, node, "stream", srv)
	var results []map[string]any
	for _, m := range res.Messages {
		if m["type"] == "result" {
			results = append(results, m)
		}
	}
	if len(results) != 2 || results[0]["result"] != "Found main.go and util/util.go." || results[1]["result"] != "Hello, Ada." ||
		results[0]["session_id"] != results[1]["session_id"] {
		t.Fatalf("results %v", results)
	}
	var answers struct {
		Commands []commandInfo `json:"commands"`
		Agents   []agentInfo   `json:"agents"`
	}
	b, _ := json.Marshal(res.Answers)
	_ = json.Unmarshal(b, &answers)
	if !slices.Contains(answers.Commands, commandInfo{Name: "greet", Description: "Greet someone"}) ||
		!slices.ContainsFunc(answers.Agents, func(a agentInfo) bool { return a.Name == "explore" && a.Description != "" }) {
		t.Errorf("commands %+v agents %+v", answers.Commands, answers.Agents)
	}
	if refused, _ := res.Answers["setPermissionMode"].(string); !strings.Contains(refused, "set_permission_mode") {
		t.Errorf("setPermissionMode: %v", res.Answers["setPermissionMode"])
	}
	reqs := srv.Requests()
	if last := reqs[len(reqs)-1]; last.Body.Model != "llmtest-model-2" {
		t.Errorf("the second prompt went to %q, want the model setModel chose", last.Body.Model)
	}
}

// TestStreamJSONReadsAsClaudeCode feeds what baton prints for a turn
// with a tool call and a sub-agent (stream-json with partial messages,
// json, and json --verbose) to a reader written for Claude Code's
// output: every message is checked against the Agent SDK's SDKMessage
// declaration.
func TestStreamJSONReadsAsClaudeCode(t *testing.T) {
	t.Parallel()
	node := needNode(t)
	var (
		mu      sync.Mutex
		systems []string
	)
	srv := llmtest.NewServer(t, delegatingTurn(&systems, &mu))
	runs := map[string][]string{
		"stream-json":  {"--output-format", "stream-json", "--verbose", "--include-partial-messages"},
		"json":         {"--output-format", "json"},
		"json-verbose": {"--output-format", "json", "--verbose"},
	}
	outputs := t.TempDir()
	var files []string
	for name, args := range runs {
		r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL}, "",
			append([]string{"-p", "find the go files", "--allowedTools", "Task"}, args...)...)
		if r.code != exitOK {
			t.Fatalf("%s: exit %d: %s", name, r.code, r.stderr)
		}
		file := filepath.Join(outputs, name)
		writeFile(t, file, r.stdout)
		files = append(files, file)
	}
	cmd := exec.CommandContext(t.Context(), node, append([]string{"check-stream.mjs"}, files...)...)
	cmd.Dir = agentSDKDir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("check-stream.mjs: %v\n%s", err, out)
	}
	var report map[string]struct {
		Types    []string `json:"types"`
		Problems []string `json:"problems"`
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := map[string][]string{
		"stream-json":  {"system/init", "assistant", "user", "stream_event", "result/success"},
		"json":         {"result/success"},
		"json-verbose": {"system/init", "assistant", "user", "result/success"},
	}
	for name := range runs {
		got := report[filepath.Join(outputs, name)]
		if len(got.Problems) > 0 {
			t.Errorf("%s: messages the SDK does not declare:\n%s", name, strings.Join(got.Problems, "\n"))
		}
		for _, w := range want[name] {
			if !slices.Contains(got.Types, w) {
				t.Errorf("%s: no %s message among %v", name, w, got.Types)
			}
		}
		if name == "json" && len(got.Types) != 1 {
			t.Errorf("json printed %v, want the result alone", got.Types)
		}
	}
}

// TestClaudeAgentSDKCanUseTool: with the SDK's canUseTool callback (the
// SDK passes --permission-prompt-tool stdio), a call no rule decides is
// asked about over the protocol: the command the callback allows runs,
// the delegation it refuses does not start and the model is told why.
func TestClaudeAgentSDKCanUseTool(t *testing.T) {
	t.Parallel()
	node := needNode(t)
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case !strings.Contains(r.System(), "You are baton"):
			w.Text("a child ran, which it must not")
		case !r.HasToolResult("asked-and-allowed"):
			w.ToolCalls(llmtest.Call{ID: "cmd_1", Name: "run_command", Args: `{"command":"echo asked-and-allowed"}`},
				llmtest.Call{ID: "task_1", Name: "task", Args: `{"description":"look","prompt":"Look.","subagent_type":"explore"}`})
		default:
			w.Text("done")
		}
	})
	res := driveWithSDK(t, node, "ask", srv)
	var asked []struct {
		ToolName string            `json:"toolName"`
		Input    map[string]string `json:"input"`
	}
	b, _ := json.Marshal(res.Answers["asked"])
	_ = json.Unmarshal(b, &asked)
	names := map[string]map[string]string{}
	for _, a := range asked {
		names[a.ToolName] = a.Input
	}
	if len(asked) != 2 || names["run_command"]["command"] != "echo asked-and-allowed" || names["task"]["subagent_type"] != "explore" {
		t.Errorf("canUseTool was asked %s", b)
	}
	results := map[string]map[string]any{}
	for _, m := range res.Messages {
		for _, b := range blocks(m) {
			if id, _ := b["tool_use_id"].(string); b["type"] == "tool_result" {
				results[id] = b
			}
		}
	}
	if out, _ := results["cmd_1"]["content"].(string); !strings.Contains(out, "asked-and-allowed") || results["cmd_1"]["is_error"] != false {
		t.Errorf("the allowed command: %v", results["cmd_1"])
	}
	if out, _ := results["task_1"]["content"].(string); !strings.Contains(out, "status: denied") || !strings.Contains(out, "no sub-agents today") {
		t.Errorf("the refused delegation: %v", results["task_1"])
	}
	for _, r := range srv.Requests() {
		if !strings.Contains(r.System(), "You are baton") {
			t.Fatal("a sub-agent started though canUseTool refused it")
		}
	}
}
