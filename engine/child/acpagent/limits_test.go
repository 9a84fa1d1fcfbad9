package acpagent

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
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
)

// blockingHooks are PreToolUse hooks that block every call of one tool,
// as a hook command exiting 2 does, and note the calls they saw.
type blockingHooks struct {
	tool, reason string
	// halt, when set, is the stop (continue: false) every call's hook
	// asks for.
	halt string
	mu   sync.Mutex
	seen []openai.ToolCall
}

func (b *blockingHooks) BeforeTool(_ context.Context, call openai.ToolCall) (agent.HookAdvice, error) {
	b.mu.Lock()
	b.seen = append(b.seen, call)
	b.mu.Unlock()
	if b.halt != "" {
		return agent.HookAdvice{Halted: true, HaltReason: b.halt}, nil
	}
	if call.Function.Name == b.tool {
		return agent.HookAdvice{}, errors.New("blocked by a PreToolUse hook: " + b.reason)
	}
	return agent.HookAdvice{}, nil
}

func (b *blockingHooks) AfterTool(context.Context, openai.ToolCall, string) agent.HookAdvice {
	return agent.HookAdvice{}
}

func (b *blockingHooks) Stop(context.Context, string, bool) agent.HookAdvice {
	return agent.HookAdvice{}
}

func (b *blockingHooks) Ended(context.Context, string) {}

func allow(*event.ApprovalRequest) event.Answer { return event.Answer{Decision: event.Allow} }

func TestACPChildPermissionRequestsGoThroughPreToolUseHooks(t *testing.T) {
	hooks := &blockingHooks{tool: "run_command", reason: "no deleting in this repo"}
	h, p, root := startJob(t, context.Background(), "work", allow, func(j *child.Job) { j.Link.Hooks = hooks })
	end := ending(t, h)
	if end.Status != event.StatusCompleted {
		t.Fatalf("ending %s: %s", end.Status, end.Reason)
	}
	// The command the person would have allowed is refused by the hook,
	// with its reason, before any card.
	if !strings.Contains(end.Text, `\"optionId\":\"no\"`) || !strings.Contains(end.Text, "no deleting in this repo") {
		t.Errorf("the agent's answer to the blocked command: %s", end.Text)
	}
	p.mu.Lock()
	for _, c := range p.cards {
		if c.Tool == "run_command" {
			t.Errorf("a card for a call the hook blocked: %+v", c)
		}
	}
	p.mu.Unlock()
	hooks.mu.Lock()
	defer hooks.mu.Unlock()
	var saw []string
	for _, c := range hooks.seen {
		saw = append(saw, c.Function.Name+" "+c.Function.Arguments)
	}
	joined := strings.Join(saw, "\n")
	for _, want := range []string{`run_command {"command":"rm -rf build"}`, `write_file {"path":"` + filepath.Join(root, "out.txt") + `"}`, "read_file "} {
		if !strings.Contains(joined, want) {
			t.Errorf("the hooks never saw %s; they saw:\n%s", want, joined)
		}
	}
}

// TestACPChildStopsWhenAHookSaysStop: a hook's stop (continue: false)
// lets the call it came with go on, as in baton's own loop, and refuses
// every later one; the child ends as a hook's stop ends baton's own.
func TestACPChildStopsWhenAHookSaysStop(t *testing.T) {
	hooks := &blockingHooks{halt: "enough for today"}
	h, _, _ := startJob(t, context.Background(), "work", allow, func(j *child.Job) { j.Link.Hooks = hooks })
	end := ending(t, h)
	if end.Status != event.StatusCompleted || end.Reason != "stopped by a hook: enough for today" {
		t.Errorf("ending %s: %q", end.Status, end.Reason)
	}
	if !strings.Contains(end.Text, `"run":"{\"outcome\":{\"outcome\":\"selected\",\"optionId\":\"no\"}`) ||
		!strings.Contains(end.Text, "baton has stopped this agent: stopped by a hook: enough for today") {
		t.Errorf("a call after the stop was not refused with its reason: %s", end.Text)
	}
}

func TestACPChildEndsAtItsStepLimit(t *testing.T) {
	h, p, root := startJob(t, context.Background(), "busy", allow, func(j *child.Job) { j.Spec.MaxSteps = 2 })
	end := ending(t, h)
	if end.Status != event.StatusMaxSteps || !strings.Contains(end.Reason, "step limit reached") {
		t.Errorf("ending %s: %s; want max_steps", end.Status, end.Reason)
	}
	if end.Text != "working" {
		t.Errorf("the result lost what the agent had said: %q", end.Text)
	}
	if _, err := os.Stat(filepath.Join(root, "cancel-received")); err != nil {
		t.Errorf("the agent was not sent session/cancel at its limit: %v", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	said, counted := false, false
	for _, ev := range p.events {
		switch e := ev.(type) {
		case event.Notice:
			said = said || strings.Contains(e.Text, "step limit reached")
		case event.StepStarted:
			counted = counted || e.Step == 2 && e.Max == 2
		}
	}
	if !said || !counted {
		t.Errorf("the pane was told why baton stopped the agent: %v; it counted its steps: %v", said, counted)
	}
}

func TestACPChildTokenBudgetHoldsBetweenTurns(t *testing.T) {
	handles := make(chan child.Handle, 1)
	h, p, _ := startJob(t, context.Background(), "steer", func(*event.ApprovalRequest) event.Answer {
		if err := (<-handles).Control(child.Control{Kind: child.Steer, Text: "also this"}); err != nil {
			t.Errorf("Control: %v", err)
		}
		return event.Answer{Decision: event.Allow}
	}, func(j *child.Job) { j.Spec.Budget = event.Budget{Tokens: 200, CostUSD: 1} })
	handles <- h
	end := ending(t, h)
	if end.Status != event.StatusBudgetExceeded || !strings.Contains(end.Reason, "token budget reached") || end.Text != "turn 1: do the thing" {
		t.Errorf("ending %s %q: %s", end.Status, end.Text, end.Reason)
	}
	if end.Stats.Usage.TotalTokens != 300 || end.Stats.Usage.CostKnown {
		t.Errorf("usage %+v; want the agent's 300 tokens at no known cost", end.Stats.Usage)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var usage, costNote bool
	for _, ev := range p.events {
		switch e := ev.(type) {
		case event.UsageReported:
			usage = usage || e.Total.TotalTokens == 300
		case event.Notice:
			costNote = costNote || strings.Contains(e.Text, "not their price")
		}
	}
	if !usage || !costNote {
		t.Errorf("usage shown %v, cost notice %v", usage, costNote)
	}
}

func TestACPChildThatReportsNoUsageSaysSo(t *testing.T) {
	h, p, _ := startJob(t, context.Background(), "work", allow, func(j *child.Job) { j.Spec.Budget = event.Budget{Tokens: 1000} })
	if end := ending(t, h); end.Status != event.StatusCompleted {
		t.Fatalf("ending %s: %s", end.Status, end.Reason)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, ev := range p.events {
		if n, ok := ev.(event.Notice); ok && strings.Contains(n.Text, "reports no token use") {
			return
		}
	}
	t.Error("the pane was not told the budget cannot be held")
}
