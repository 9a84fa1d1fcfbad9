package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// --child-budget bounds every child: one that would loop forever ends
// budget_exceeded at its token budget, with its report, and the json
// result carries its status and use against the budget.
func TestHeadlessChildBudgetEndsALoopingChild(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, loopingChild)
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL}, "", "-p", "go", "--allow", "task",
		"--child-budget", "tokens=300,steps=15", "--child-budget", "time=120", "--output-format", "json")
	var res claudeResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != exitOK {
		t.Fatalf("exit %d, %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
	}
	if len(res.Subagents) != 1 {
		t.Fatalf("subagents %+v", res.Subagents)
	}
	end := res.Subagents[0]
	if end.Status != event.StatusBudgetExceeded || end.Use.TokensMax != 300 || end.Use.StepsMax != 15 || end.Use.TimeSMax != 120 || end.Use.Tokens < 300 {
		t.Fatalf("subagent ended %+v", end)
	}
}

// stream-json carries the same ending on the task call's result
// (tool_use_result), with the child's report in its content.
func TestStreamJSONCarriesTheChildsEnding(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, loopingChild)
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL}, "", "-p", "go", "--allow", "task",
		"--child-budget", "tokens=300", "--output-format", "stream-json", "--verbose")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	found := false
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var msg struct {
			Type          string          `json:"type"`
			ToolUseResult *subagentEnding `json:"tool_use_result"`
			Message       struct {
				Content []struct {
					Content string `json:"content"`
				} `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		if msg.Type != "user" || msg.ToolUseResult == nil {
			continue
		}
		found = true
		end := msg.ToolUseResult
		if end.Status != event.StatusBudgetExceeded || end.Use.TokensMax != 300 || len(msg.Message.Content) != 1 ||
			!strings.Contains(msg.Message.Content[0].Content, "REPORT: looked at 3 folders") {
			t.Errorf("task result %s", line)
		}
	}
	if !found {
		t.Fatalf("no task result carried tool_use_result:\n%s", r.stdout)
	}
}

// loopingChild scripts a main agent that delegates once and a child
// that would list files forever; asked without tools, it reports.
func loopingChild(req *llmtest.Request, w *llmtest.Writer) {
	isMain := strings.Contains(strings.Join(req.ToolNames(), ","), "task")
	switch {
	case !isMain && len(req.ToolNames()) == 0:
		w.Text("REPORT: looked at 3 folders")
	case !isMain:
		w.ToolCalls(llmtest.Call{Name: "list_files", Args: `{}`})
	case len(req.Body.Messages) > 0 && req.Body.Messages[len(req.Body.Messages)-1].Role == "tool":
		w.Text("ok")
	default:
		w.ToolCalls(llmtest.Call{Name: "task", Args: `{"description":"loop","prompt":"look around","subagent_type":"explore"}`})
	}
}

func TestChildBudgetFlagRefusesBadInput(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"tokens", "tokens=-1", "cost=abc", "depth=2", "steps=100000", "time=NaN"} {
		if _, err := parseFlags([]string{"--child-budget", bad}); err == nil || !strings.Contains(err.Error(), "--child-budget") {
			t.Errorf("--child-budget %s: %v", bad, err)
		}
	}
}

// [limits] turn_tokens bounds the main agent's turn: a turn that would
// loop forever ends budget_exceeded with its last answer, as Claude
// Code's budget error in json.
func TestHeadlessTurnBudgetEndsALoopingTurn(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, func(req *llmtest.Request, w *llmtest.Writer) {
		if len(req.ToolNames()) == 0 {
			w.Text("REPORT: listed the root")
			return
		}
		w.ToolCalls(llmtest.Call{Name: "list_files", Args: `{}`})
	})
	cfgDir := t.TempDir()
	writeFile(t, filepath.Join(cfgDir, "baton", "config.toml"), "[limits]\nturn_tokens = 300\n")
	r := runIn(t, context.Background(), []string{"OPENAI_BASE_URL=" + srv.URL, "XDG_CONFIG_HOME=" + cfgDir}, "", "-p", "go", "--output-format", "json")
	var res claudeResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != exitFailed {
		t.Fatalf("exit %d, %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
	}
	if res.Status != event.StatusBudgetExceeded || res.Subtype != "error_max_budget_usd" || !strings.Contains(res.Result, "REPORT: listed the root") {
		t.Fatalf("result %+v", res)
	}
}
