package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// TestClaudeFlagsMapToBaton: the flags the Claude Agent SDK passes are
// read into what baton does: tool rules in Claude Code's names, the
// permission mode, the turn limit, the system prompt, the settings files
// to read; flags baton cannot honour are refused by name.
func TestClaudeFlagsMapToBaton(t *testing.T) {
	t.Parallel()
	home, ws := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, ".claude", "settings.json"), `{"permissions":{"deny":["Bash(curl:*)"]}}`)
	writeFile(t, filepath.Join(ws, ".claude", "settings.local.json"), `{"permissions":{"deny":["Read(./secrets/**)"]}}`)
	cfg, err := loadWith(t, home, ws, []string{"--output-format=stream-json", "--verbose", "--input-format=stream-json", "--max-turns=7",
		"--model=m", "--permission-mode=acceptEdits", "--allowedTools=Bash(git log:*) Read,Task", "--disallowedTools=WebFetch,Skill",
		"--setting-sources=local", "--append-system-prompt=Be brief.", "--max-thinking-tokens=1024", "--include-partial-messages",
		"--debug-file=/tmp/x.log"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"run_command(git log:*)", "read_file", "task", "edit_file", "write_file"}; !slices.Equal(cfg.Allow, want) {
		t.Errorf("allow %v, want %v", cfg.Allow, want)
	}
	rules := strings.Join(ruleTexts(cfg.Rules), "\n")
	for _, want := range []string{"deny read_file(secrets/**) @.claude/settings.local.json", "deny web_fetch @--disallowedTools"} {
		if !strings.Contains(rules, want) {
			t.Errorf("rules lack %q:\n%s", want, rules)
		}
	}
	if strings.Contains(rules, "curl") {
		t.Errorf("--setting-sources=local read the user's settings:\n%s", rules)
	}
	notices := strings.Join(cfg.Notices, "\n")
	for _, want := range []string{`--disallowedTools: skipped "Skill"`, "--max-thinking-tokens: accepted for Claude Code's sake"} {
		if !strings.Contains(notices, want) {
			t.Errorf("notices lack %q:\n%s", want, notices)
		}
	}
	if cfg.Limits.MaxSteps != 7 || cfg.Model != "m" || cfg.AppendSystemPrompt != "Be brief." || cfg.DebugLog != "/tmp/x.log" || cfg.Yolo {
		t.Errorf("config %+v", cfg)
	}
	if cfg, _ := loadWith(t, home, ws, []string{"-p", "x", "--permission-mode", "bypassPermissions"}); !cfg.Yolo {
		t.Error("bypassPermissions is not --yolo")
	}
	for args, want := range map[string]string{
		"-p x --permission-mode plan":                                 "baton has no plan or auto mode headless",
		"-p x --max-budget-usd 3":                                     "--max-budget-usd: baton has no equivalent",
		"-p x --tools Bash,Read":                                      "--tools: baton takes only default",
		"--input-format stream-json":                                  "needs --output-format stream-json",
		"-p x --input-format stream-json --output-format stream-json": "drop -p",
		"-p x --input-format xml":                                     "--input-format: expected text or stream-json",
		"-p x --include-partial-messages":                             "only applies to --output-format stream-json",
		"-p x --max-turns 3 --max-steps 4":                            "the same limit",
		"-p x --setting-sources user,cloud":                           `--setting-sources: expected user, project or local, got "cloud"`,
	} {
		if _, err := parseFlags(strings.Fields(args)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v, want %q", args, err, want)
		}
	}
}

// TestHeadlessSlashCommand: baton -p "/name args" sends the command's
// prompt, as the TUI does; a sub-task command asks for a delegation; a
// TUI command's name and an unknown name go as typed.
func TestHeadlessSlashCommand(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, ".claude", "commands", "review.md"), "---\ndescription: Review\n---\nReview $1, focusing on $2.")
	writeFile(t, filepath.Join(ws, ".opencode", "command", "audit.md"), "---\nagent: review\n---\nAudit $ARGUMENTS.")
	for prompt, want := range map[string]string{
		`/review engine/agent.go "error handling"`: "Review engine/agent.go, focusing on error handling.",
		"/audit src/":         `call the task tool with subagent_type "review"`,
		"/help me":            "/help me",
		"/nothere x":          "/nothere x",
		"/usr/bin is missing": "/usr/bin is missing",
	} {
		before := len(srv.Requests())
		env := []string{"HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL}
		var stdout, stderr strings.Builder
		if code := run(context.Background(), ws, []string{"-p", prompt}, env, strings.NewReader(""), &stdout, &stderr, nil); code != exitOK {
			t.Fatalf("%s: exit %d: %s", prompt, code, stderr.String())
		}
		if got := srv.Requests()[before].LastUser(); !strings.Contains(got, want) {
			t.Errorf("%s: sent %q, want %q", prompt, got, want)
		}
		if prompt == "/help me" && !strings.Contains(stderr.String(), "/help is a command of the TUI") {
			t.Errorf("/help: stderr %q", stderr.String())
		}
	}
}

// TestStreamInputSurvivesBadLines: lines that are not JSON, of an
// unknown type, or a user message without text are reported on stderr
// and skipped; an unknown control request gets an error answer; the
// prompts around them still run, one result each.
func TestStreamInputSurvivesBadLines(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("answer to " + r.LastUser()) })
	stdin := strings.Join([]string{
		`{"type":"control_request","request_id":"r1","request":{"subtype":"initialize","appendSystemPrompt":"Be brief."}}`,
		`not json`,
		`{"type":"user","message":{"role":"user","content":"one"},"parent_tool_use_id":null,"session_id":""}`,
		`{"type":"telepathy"}`,
		`{"type":"control_request","request_id":"r2","request":{"subtype":"rewind_files"}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"image","source":{}}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"two"}]}}`,
	}, "\n")
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL}, stdin,
		"--input-format", "stream-json", "--output-format", "stream-json")
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var results []string
	var answers []controlVerdict
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var m struct {
			Type     string         `json:"type"`
			Result   string         `json:"result"`
			Response controlVerdict `json:"response"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		switch m.Type {
		case "result":
			results = append(results, m.Result)
		case "control_response":
			answers = append(answers, m.Response)
		}
	}
	if !slices.Equal(results, []string{"answer to one", "answer to two"}) {
		t.Errorf("results %q", results)
	}
	if len(answers) != 2 || answers[0].Subtype != "success" || answers[0].RequestID != "r1" ||
		answers[1].Subtype != "error" || !strings.Contains(answers[1].Error, `"rewind_files"`) {
		t.Errorf("control answers %+v", answers)
	}
	for _, want := range []string{"stdin line 2: skipped: not JSON", `stdin line 4: skipped: a message of type "telepathy"`,
		`stdin line 6: skipped: a "image" content block`} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if sys := srv.Requests()[0].System(); !strings.HasSuffix(sys, "Be brief.") {
		t.Errorf("initialize's appendSystemPrompt did not reach the system prompt:\n%s", sys)
	}
}

// TestStreamInputInterrupt: a control request to interrupt, sent while a
// turn waits on the model, stops that turn (its result says so) and is
// answered; the next prompt then runs in the same process.
func TestStreamInputInterrupt(t *testing.T) {
	t.Parallel()
	asked := make(chan struct{}, 1)
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if r.LastUser() == "slow" {
			asked <- struct{}{}
			<-w.Context().Done()
			return
		}
		w.Text("answer to " + r.LastUser())
	})
	ws := t.TempDir()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	code := make(chan int, 1)
	env := []string{"HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL}
	go func() {
		c := run(context.Background(), ws, []string{"--input-format", "stream-json", "--output-format", "stream-json"}, env, inR, outW, io.Discard, nil)
		outW.Close()
		code <- c
	}()
	lines := bufio.NewScanner(outR)
	next := func(typ string) map[string]any {
		t.Helper()
		for lines.Scan() {
			var m map[string]any
			if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
				t.Fatalf("not JSON: %s", lines.Text())
			}
			if m["type"] == typ {
				return m
			}
		}
		t.Fatalf("stdout ended before a %s message", typ)
		return nil
	}
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"type":"user","message":{"role":"user","content":"slow"}}`)
	<-asked
	send(`{"type":"control_request","request_id":"stop-1","request":{"subtype":"interrupt"}}`)
	if resp := next("control_response")["response"].(map[string]any); resp["subtype"] != "success" || resp["request_id"] != "stop-1" {
		t.Fatalf("interrupt answered %v", resp)
	}
	if res := next("result"); res["subtype"] != "error_during_execution" || res["is_error"] != true || res["status"] != "interrupted" {
		t.Fatalf("interrupted turn's result %v", res)
	}
	send(`{"type":"user","message":{"role":"user","content":"fast"}}`)
	if res := next("result"); res["result"] != "answer to fast" {
		t.Fatalf("next prompt's result %v", res)
	}
	inW.Close()
	for lines.Scan() {
	}
	if c := <-code; c != exitOK {
		t.Fatalf("exit %d", c)
	}
}

// TestStreamAskNeverRunsWhatWasNotAsked: over --permission-prompt-tool
// stdio, an allow that changes the call's input is a denial (baton runs a
// call as asked or not at all), and stdin ending while a question waits
// denies it rather than leaving the turn to hang. An allow of the call as
// asked runs it; a denial reaches the model with its message or a
// default; an answer baton cannot read, or the prompt's own failure, is a
// denial saying so; answers to no question change nothing.
func TestStreamAskNeverRunsWhatWasNotAsked(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, answer, want string
		// failed is the prompt's error, answered instead of a success.
		failed string
	}{
		{"changed input", `{"behavior":"allow","updatedInput":{"command":"echo other"}}`, "changed the call's input", ""},
		{"stdin ends", "", "stdin has ended", ""},
		{"allowed as asked", `{"behavior":"allow","updatedInput":{"command":"echo asked"}}`, "after: asked", ""},
		{"denied with a message", `{"behavior":"deny","message":"not on Fridays"}`, "not on Fridays", ""},
		{"denied", `{"behavior":"deny"}`, "denied by the permission prompt", ""},
		{"unreadable answer", `42`, "the permission prompt's answer could not be read", ""},
		{"prompt failed", `{}`, "the permission prompt failed: the hook crashed", "the hook crashed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
				if len(r.Body.Messages) > 0 && r.Body.Messages[len(r.Body.Messages)-1].Role == "tool" {
					w.Text("after: " + r.Body.Messages[len(r.Body.Messages)-1].Content)
					return
				}
				w.ToolCalls(llmtest.Call{ID: "c1", Name: "run_command", Args: `{"command":"echo asked"}`})
			})
			ws := t.TempDir()
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			code := make(chan int, 1)
			env := []string{"HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL}
			go func() {
				c := run(context.Background(), ws, []string{"--input-format", "stream-json", "--output-format", "stream-json",
					"--permission-prompt-tool", "stdio"}, env, inR, outW, io.Discard, nil)
				outW.Close()
				code <- c
			}()
			if _, err := io.WriteString(inW, `{"type":"user","message":{"role":"user","content":"go"}}`+"\n"); err != nil {
				t.Fatal(err)
			}
			lines := bufio.NewScanner(outR)
			var result map[string]any
			for lines.Scan() {
				var m map[string]any
				_ = json.Unmarshal(lines.Bytes(), &m)
				if m["type"] == "control_request" {
					req := m["request"].(map[string]any)
					if req["subtype"] != "can_use_tool" || req["tool_name"] != "run_command" || req["tool_use_id"] != "c1" {
						t.Fatalf("question %v", m)
					}
					if tc.answer == "" {
						inW.Close()
						continue
					}
					answer := `{"type":"control_response","response":{"subtype":"success","request_id":"` + m["request_id"].(string) + `","response":` + tc.answer + `}}`
					if tc.failed != "" {
						answer = `{"type":"control_response","response":{"subtype":"error","request_id":"` + m["request_id"].(string) + `","error":"` + tc.failed + `"}}`
					}
					// An answer to no question of baton's, and one that
					// is not an object, change nothing.
					if _, err := io.WriteString(inW, `{"type":"control_response","response":{"subtype":"success","request_id":"not-asked","response":{"behavior":"allow"}}}`+"\n"+
						`{"type":"control_response","response":[]}`+"\n"); err != nil {
						t.Fatal(err)
					}
					if _, err := io.WriteString(inW, answer+"\n"); err != nil {
						t.Fatal(err)
					}
				}
				if m["type"] == "result" {
					result = m
					inW.Close()
				}
			}
			<-code
			if got, _ := result["result"].(string); !strings.Contains(got, tc.want) || strings.Contains(got, "other") {
				t.Fatalf("result %v, want the call denied with %q", result, tc.want)
			}
		})
	}
}

// TestStreamInputControlRequestsAndBadMessages: before the first user
// message, initialize may set the system prompt (text or a list of
// texts, anything else refused) and set_model the model; after it,
// initialize is refused. A request that is not an object, a user
// message without content, with content of another shape, or empty,
// and a line over the 4 MiB cap are each skipped saying why; keep-alives
// pass silently; the prompt among them runs as set up.
func TestStreamInputControlRequestsAndBadMessages(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("answer to " + r.LastUser()) })
	stdin := strings.Join([]string{
		`{"type":"control_request","request_id":"i0","request":{"subtype":"initialize","systemPrompt":42}}`,
		`{"type":"control_request","request_id":"i1","request":{"subtype":"initialize","systemPrompt":["You are terse.","Answer in French."]}}`,
		`{"type":"control_request","request_id":"m0","request":{"subtype":"set_model","model":"small-model"}}`,
		`{"type":"control_request","request_id":"x0","request":[1,2]}`,
		`{"type":"keep_alive"}`,
		`{"type":"user","message":{"role":"user"}}`,
		`{"type":"user","message":{"role":"user","content":42}}`,
		`{"type":"user","message":{"role":"user","content":"   "}}`,
		`{"type":"user","message":{"role":"user","content":"` + strings.Repeat("x", maxInputLine+1) + `"}}`,
		`{"type":"user","message":{"role":"user","content":"one"}}`,
		`{"type":"control_request","request_id":"i2","request":{"subtype":"initialize"}}`,
	}, "\n")
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL}, stdin,
		"--input-format", "stream-json", "--output-format", "stream-json")
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	answers := map[string]controlVerdict{}
	var results []string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var m struct {
			Type     string         `json:"type"`
			Result   string         `json:"result"`
			Response controlVerdict `json:"response"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		switch m.Type {
		case "result":
			results = append(results, m.Result)
		case "control_response":
			answers[m.Response.RequestID] = m.Response
		}
	}
	if !slices.Equal(results, []string{"answer to one"}) {
		t.Errorf("results %q", results)
	}
	for id, want := range map[string]string{"i0": "systemPrompt must be text or a list of text", "i1": "", "m0": "",
		"x0": "the request is not a JSON object", "i2": "initialize comes before the first user message"} {
		got, ok := answers[id]
		switch {
		case !ok:
			t.Errorf("%s: no answer", id)
		case want == "" && got.Subtype != "success":
			t.Errorf("%s: %+v, want success", id, got)
		case want != "" && (got.Subtype != "error" || !strings.Contains(got.Error, want)):
			t.Errorf("%s: %+v, want an error saying %q", id, got, want)
		}
	}
	for _, want := range []string{`stdin line 6: skipped: a user message needs "message"`,
		"stdin line 7: skipped: a user message's content must be text or a list of content blocks",
		"stdin line 8: skipped: the user message is empty",
		fmt.Sprintf("stdin line 9: skipped: a line longer than %d bytes; not read", maxInputLine)} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "line 5") {
		t.Errorf("a keep-alive was reported:\n%s", r.stderr)
	}
	req := srv.Requests()[0]
	if sys := req.System(); !strings.HasPrefix(sys, "You are terse.\n\nAnswer in French.") {
		t.Errorf("initialize's systemPrompt list is not the system prompt:\n%s", sys)
	}
	if req.Body.Model != "small-model" {
		t.Errorf("set_model before the session: the model sent is %q", req.Body.Model)
	}
}

// TestStreamAskDelegationTakesTheEditedPrompt: over
// --permission-prompt-tool stdio a delegation is asked as the task call
// the model wrote; an allow whose input carries another prompt runs the
// child on that prompt, as e on a card does.
func TestStreamAskDelegationTakesTheEditedPrompt(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case !slices.Contains(r.ToolNames(), "task"):
			w.Text("child saw: " + r.LastUser())
		case r.Index == 0:
			w.ToolCalls(llmtest.Call{ID: "t1", Name: "task", Args: `{"description":"list files","prompt":"list every file","subagent_type":"explore"}`})
		default:
			msgs := r.Body.Messages
			w.Text("main got: " + msgs[len(msgs)-1].Content)
		}
	})
	ws := t.TempDir()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	code := make(chan int, 1)
	env := []string{"HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL}
	go func() {
		c := run(context.Background(), ws, []string{"--input-format", "stream-json", "--output-format", "stream-json",
			"--permission-prompt-tool", "stdio"}, env, inR, outW, io.Discard, nil)
		outW.Close()
		code <- c
	}()
	if _, err := io.WriteString(inW, `{"type":"user","message":{"role":"user","content":"go"}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(outR)
	var asked map[string]any
	var result string
	for lines.Scan() {
		var m map[string]any
		_ = json.Unmarshal(lines.Bytes(), &m)
		switch m["type"] {
		case "control_request":
			asked = m["request"].(map[string]any)
			answer := `{"type":"control_response","response":{"subtype":"success","request_id":"` + m["request_id"].(string) +
				`","response":{"behavior":"allow","updatedInput":{"description":"list files","prompt":"list only the go files","subagent_type":"explore"}}}}`
			if _, err := io.WriteString(inW, answer+"\n"); err != nil {
				t.Fatal(err)
			}
		case "result":
			result, _ = m["result"].(string)
			inW.Close()
		}
	}
	if c := <-code; c != exitOK {
		t.Fatalf("exit %d", c)
	}
	input, _ := asked["input"].(map[string]any)
	if asked["tool_name"] != "task" || input["prompt"] != "list every file" || input["subagent_type"] != "explore" {
		t.Fatalf("the question %v", asked)
	}
	if !strings.Contains(result, "main got: ") || !strings.Contains(result, "child saw: ") || !strings.Contains(result, "list only the go files") {
		t.Fatalf("result %q: the child did not run on the edited prompt", result)
	}
}
