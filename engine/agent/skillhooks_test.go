package agent_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/rules"
	"github.com/seed-e4e525a6/baton/engine/skills"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// recorder is an Authorizer that allows every call and keeps what it
// was asked.
type recorder struct {
	mu  sync.Mutex
	got []agent.ToolRequest
}

func (r *recorder) Authorize(_ context.Context, req agent.ToolRequest) (tools.Withhold, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, req)
	return nil, nil
}

// styleSkill is a skill in its own folder whose allowed-tools let only
// grep run without asking.
func styleSkill(t *testing.T) skills.Skill {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "SKILL.md")
	if err := os.WriteFile(file, []byte("---\nname: style\ndescription: house style\n---\nUse tabs.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	allowed, err := rules.ParseAll([]string{"grep"})
	if err != nil {
		t.Fatal(err)
	}
	return skills.Skill{Name: "style", Description: "house style", Dir: dir, File: file, Allowed: allowed, ModelInvocable: true}
}

// Loading a skill gives the model its instructions, folder and
// arguments; while it is active its allowed-tools narrow what runs
// without asking, until the turn ends. A skill that is not offered, or
// none named, is the model's mistake.
func TestSkillLoadsAndNarrowsForTheTurn(t *testing.T) {
	sk := styleSkill(t)
	var loaded []string
	st := agent.NewSkills([]skills.Skill{sk}, nil, func(name string) { loaded = append(loaded, name) })
	auth := &recorder{}
	a, evs := newAgent(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch r.Index {
		case 0:
			w.ToolCalls(llmtest.Call{Name: agent.SkillToolName, Args: `{"skill":"Style","args":"--strict"}`},
				llmtest.Call{Name: agent.SkillToolName, Args: `{"name":"nope"}`},
				llmtest.Call{Name: agent.SkillToolName, Args: `{}`})
		case 1:
			for _, want := range []string{"Base directory for this skill: " + sk.Dir, "Use tabs.", "ARGUMENTS: --strict", `no skill "nope"; yours are: style`, "name a skill"} {
				if !r.HasToolResult(want) {
					t.Errorf("the model was not told %q", want)
				}
			}
			w.ToolCalls(llmtest.Call{Name: "write", Args: `{"text":"x"}`})
		default:
			w.Text("styled")
		}
	}, func(c *agent.Config) {
		c.Skills = st
		c.Tools = c.Tools.With(agent.SkillTool(st))
		c.Authorize = auth
	})
	if res := a.Run(context.Background(), "style it"); res.Status != event.StatusCompleted {
		t.Fatalf("result %+v", res)
	}
	if len(loaded) != 1 || loaded[0] != "style" {
		t.Errorf("loads counted %v", loaded)
	}
	var write agent.ToolRequest
	for _, req := range auth.got {
		if req.Tool == "write" {
			write = req
		}
	}
	if write.Skills != "style" || rules.Covered(write.Narrowed, rules.Call{Tool: "write"}) || !rules.Covered(write.Narrowed, rules.Call{Tool: "grep"}) {
		t.Errorf("the active skill did not narrow the call: %+v", write)
	}
	a.EndTurn()
	if fin := evs.finished(); len(fin) != 4 || fin[0].Summary != "loaded style" || !fin[1].IsError || !fin[2].IsError {
		t.Errorf("finished %+v", fin)
	}
	tool := agent.SkillTool(st)
	if tool.Title([]byte(`{"skill":"style"}`)) != "skill style" || tool.Title([]byte(`nope`)) != "skill" || !tool.ReadOnly() || tool.Description() == "" || len(tool.Schema()) == 0 {
		t.Error("the skill tool does not describe itself")
	}
	if agent.NewSkills(nil, nil, nil) != nil {
		t.Error("an agent offered no skills has a skill state")
	}
}

// hookScript is a Hooks whose answers a test sets.
type hookScript struct {
	before   func(openai.ToolCall) (agent.HookAdvice, error)
	after    agent.HookAdvice
	stop     []agent.HookAdvice
	stops    int
	endedLog []string
}

func (h *hookScript) BeforeTool(_ context.Context, call openai.ToolCall) (agent.HookAdvice, error) {
	if h.before == nil {
		return agent.HookAdvice{}, nil
	}
	return h.before(call)
}

func (h *hookScript) AfterTool(context.Context, openai.ToolCall, string) agent.HookAdvice {
	return h.after
}

func (h *hookScript) Stop(context.Context, string, bool) agent.HookAdvice {
	h.stops++
	if len(h.stop) == 0 {
		return agent.HookAdvice{}
	}
	adv := h.stop[0]
	h.stop = h.stop[1:]
	return adv
}

func (h *hookScript) Ended(_ context.Context, last string) { h.endedLog = append(h.endedLog, last) }

// What hooks say reaches the model with the result it is about; a
// PreToolUse refusal is the call's error; a Stop hook's words send the
// agent on once more; a halt stops it after the step.
func TestHooksSpeakToTheLoop(t *testing.T) {
	h := &hookScript{
		before: func(call openai.ToolCall) (agent.HookAdvice, error) {
			if strings.Contains(call.Function.Arguments, "blocked") {
				return agent.HookAdvice{}, errors.New("a hook refused it")
			}
			return agent.HookAdvice{Context: []string{"mind the tests"}}, nil
		},
		after: agent.HookAdvice{Context: []string{"formatted"}},
		stop:  []agent.HookAdvice{{Context: []string{"you forgot the docs"}}},
	}
	a, evs := newAgent(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch r.Index {
		case 0:
			w.ToolCalls(llmtest.Call{Name: "echo", Args: `{"text":"ok"}`}, llmtest.Call{Name: "echo", Args: `{"text":"blocked"}`})
		case 1:
			for _, want := range []string{"[PreToolUse hook] mind the tests", "[PostToolUse hook] formatted", "a hook refused it"} {
				if !r.HasToolResult(want) {
					t.Errorf("the model was not told %q", want)
				}
			}
			w.Text("done")
		default:
			if !strings.Contains(r.LastUser(), "[Stop hook] you forgot the docs") {
				t.Errorf("the Stop hook's words are not the next message: %q", r.LastUser())
			}
			w.Text("docs done too")
		}
	}, func(c *agent.Config) { c.Hooks = h })
	res := a.Run(context.Background(), "x")
	if res.Status != event.StatusCompleted || res.Text != "docs done too" || h.stops != 2 {
		t.Fatalf("result %+v, %d stops", res, h.stops)
	}
	sentOn := false
	for _, ev := range evs.all {
		if n, ok := ev.(event.Notice); ok && strings.Contains(n.Text, "a Stop hook sent the agent on") {
			sentOn = true
		}
	}
	if !sentOn {
		t.Error("the person was not told a hook sent the agent on")
	}

	halting := &hookScript{after: agent.HookAdvice{Halted: true}}
	b, _ := newAgent(t, func(_ *llmtest.Request, w *llmtest.Writer) {
		w.ToolCalls(llmtest.Call{Name: "echo", Args: `{"text":"x"}`})
	}, func(c *agent.Config) { c.Hooks, c.Depth = halting, 1 })
	res = b.Run(context.Background(), "x")
	if res.Stats.Steps != 1 || res.Reason != "stopped by a hook: no reason given" {
		t.Errorf("a halted agent: %+v", res)
	}
	if len(halting.endedLog) != 1 {
		t.Errorf("a child that ended without answering ran SubagentStop %d times", len(halting.endedLog))
	}
}
