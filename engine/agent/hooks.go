package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/hooks"
)

// Hooks are the session's hook commands at the points of one agent's
// life, already bound to that agent; the loop turns what they say into
// what it does. A nil Hooks runs none.
type Hooks interface {
	// BeforeTool runs the PreToolUse hooks of a call; an error refuses
	// the call, for the model.
	BeforeTool(ctx context.Context, call openai.ToolCall) (HookAdvice, error)
	// AfterTool runs the PostToolUse hooks of a call that succeeded with
	// output.
	AfterTool(ctx context.Context, call openai.ToolCall, output string) HookAdvice
	// Stop runs the Stop hooks (SubagentStop for a child) at an answer
	// without tool calls; active says they sent the agent on before.
	// Context sends it on, unless Halted.
	Stop(ctx context.Context, last string, active bool) HookAdvice
	// Ended runs the SubagentStop hooks of a child that ended without
	// answering (a limit, a failure): they see every child's end, and
	// cannot send it on.
	Ended(ctx context.Context, last string)
}

// HookAdvice is what hooks said, as the loop takes it.
type HookAdvice struct {
	// Decision is a PreToolUse decision for the Authorizer: "",
	// hooks.Allow (no card) or hooks.Ask (a card).
	Decision string `json:"decision,omitempty"`
	// Context is what the hooks tell the model.
	Context []string `json:"context,omitempty"`
	// Halted says a hook stopped the agent (continue: false), for
	// HaltReason; the loop stops once the step's calls have ended.
	Halted     bool   `json:"halted,omitempty"`
	HaltReason string `json:"halt_reason,omitempty"`
}

// WithHookNotes appends what hooks of ev said to the model to text.
func WithHookNotes(text string, ev hooks.Event, notes []string) string {
	for _, n := range notes {
		if n = strings.TrimSpace(n); n != "" {
			text += fmt.Sprintf("\n\n[%s hook] %s", ev, n)
		}
	}
	return text
}

// beforeTool runs the PreToolUse hooks of a call, noting a halt.
func (a *Agent) beforeTool(ctx context.Context, call openai.ToolCall) (HookAdvice, error) {
	if a.cfg.Hooks == nil {
		return HookAdvice{}, nil
	}
	adv, err := a.cfg.Hooks.BeforeTool(ctx, call)
	a.noteHalt(adv)
	return adv, err
}

// afterTool runs the PostToolUse hooks of a call that succeeded and adds
// to its output what they and the PreToolUse hooks (before) said.
func (a *Agent) afterTool(ctx context.Context, call openai.ToolCall, before []string, output string) string {
	output = WithHookNotes(output, hooks.PreToolUse, before)
	if a.cfg.Hooks == nil {
		return output
	}
	adv := a.cfg.Hooks.AfterTool(ctx, call, output)
	a.noteHalt(adv)
	return WithHookNotes(output, hooks.PostToolUse, adv.Context)
}

// noteHalt keeps a stop a hook asked for.
func (a *Agent) noteHalt(adv HookAdvice) {
	if adv.Halted {
		a.halted.set(adv.HaltReason)
	}
}

// stopHook runs the Stop (SubagentStop) hooks when the agent answered
// without calling tools, and reports whether they sent it on: what they
// said becomes its next message.
func (a *Agent) stopHook(ctx context.Context, run *runState, last string) bool {
	run.stopHooked = true
	if a.cfg.Hooks == nil {
		return false
	}
	adv := a.cfg.Hooks.Stop(ctx, last, run.stopContinued)
	if adv.Halted || len(adv.Context) == 0 {
		return false
	}
	ev := hooks.Stop
	if a.cfg.Depth > 0 {
		ev = hooks.SubagentStop
	}
	run.stopContinued = true
	a.Emit(event.Notice{Meta: a.Stamp(), Text: fmt.Sprintf("a %s hook sent the agent on: %s", ev, firstLine(adv.Context[0]))})
	a.Append(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: strings.TrimSpace(WithHookNotes("", ev, adv.Context))})
	return true
}

// ended runs the SubagentStop hooks of a child that ended without
// answering; a child stopped because baton is closing has none.
func (a *Agent) ended(ctx context.Context, run *runState) {
	if a.cfg.Hooks == nil || a.cfg.Depth == 0 || run.stopHooked || errors.Is(context.Cause(ctx), ErrSessionEnded) {
		return
	}
	a.cfg.Hooks.Ended(context.WithoutCancel(ctx), run.text)
}

// halt is a stop a hook asked for (continue: false), taken once the
// agent's calls of this step have ended.
type halt struct {
	mu      sync.Mutex
	reason  string
	pending bool
}

func (h *halt) set(reason string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if strings.TrimSpace(reason) == "" {
		reason = "no reason given"
	}
	h.reason, h.pending = reason, true
}

// take returns the stop's reason, once.
func (h *halt) take() (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	reason, ok := h.reason, h.pending
	h.reason, h.pending = "", false
	return reason, ok
}
