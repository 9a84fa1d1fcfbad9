package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/hooks"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// hookPoints runs the session's hooks at the points of an agent's life
// and turns what they say into what the engine does: a PreToolUse deny
// refuses the call, added context reaches the model, a Stop hook's block
// sends the agent on. A nil hookPoints runs nothing.
type hookPoints struct {
	runner    *hooks.Runner
	sessionID string
	mode      string
	workspace string
	// transcript is an agent's transcript file ("" without one).
	transcript func(event.AgentID) string
}

// newHookPoints is nil without hooks.
func newHookPoints(cfg Config, transcript func(event.AgentID) string) *hookPoints {
	env := cfg.HookEnv
	if env == nil {
		env = tools.WithoutSecrets(os.Environ())
	}
	runner := hooks.NewRunner(cfg.Hooks, cfg.Workspace, env)
	if runner == nil {
		return nil
	}
	id := fmt.Sprintf("baton-%d", time.Now().UnixNano())
	if cfg.Transcript != nil {
		id = cfg.Transcript.ID()
	}
	mode := map[permission.Mode]string{permission.Ask: "default", permission.Headless: "dontAsk", permission.Yolo: "bypassPermissions"}[cfg.Mode]
	return &hookPoints{runner: runner, sessionID: id, mode: mode, workspace: cfg.Workspace, transcript: transcript}
}

// has reports whether any hook runs at ev.
func (h *hookPoints) has(ev hooks.Event) bool { return h != nil && h.runner.Has(ev) }

// input is what every event tells a hook, with a child's identity for a
// child.
func (h *hookPoints) input(meta event.Meta, typeName string, ev hooks.Event) hooks.Input {
	in := hooks.Input{Event: ev, SessionID: h.sessionID, TranscriptPath: h.transcript(event.MainAgent), Cwd: h.workspace, PermissionMode: h.mode}
	if meta.Agent != event.MainAgent {
		in.AgentID, in.AgentType = string(meta.Agent), typeName
	}
	return in
}

// run runs the hooks of in and tells the person what they have to say,
// as meta: messages, a stop's reason, and each hook's first failure.
func (h *hookPoints) run(ctx context.Context, emit func(event.Event), meta event.Meta, in hooks.Input) hooks.Outcome {
	out := h.runner.Run(ctx, in)
	stamp := func() event.Meta {
		m := meta
		m.Time = time.Now()
		return m
	}
	for _, text := range out.Problems {
		emit(event.Notice{Meta: stamp(), Text: text})
	}
	for _, text := range out.Messages {
		emit(event.Notice{Meta: stamp(), Text: fmt.Sprintf("%s hook: %s", in.Event, text)})
	}
	if out.Stop {
		emit(event.Notice{Meta: stamp(), Text: fmt.Sprintf("a %s hook stopped the agent: %s", in.Event, cmpText(out.StopReason, "no reason given"))})
	}
	return out
}

// bind is the hook points of one agent: the main agent (depth 0) or a
// child, whose notices go to emit. Nil without hooks.
func (h *hookPoints) bind(meta event.Meta, typeName string, depth int, emit func(event.Event)) *boundHooks {
	if h == nil {
		return nil
	}
	return &boundHooks{h: h, meta: meta, typeName: typeName, depth: depth, emit: emit}
}

// forMain is the main agent's hooks (nil without any).
func (h *hookPoints) forMain(emit func(event.Event)) agent.Hooks {
	if b := h.bind(event.Meta{Agent: event.MainAgent}, "", 0, emit); b != nil {
		return b
	}
	return nil
}

// forChild is a child's hooks, child.Options.Hooks (nil without any).
func (h *hookPoints) forChild() func(event.Meta, string, func(event.Event)) child.Hooks {
	if h == nil {
		return nil
	}
	return func(meta event.Meta, typeName string, emit func(event.Event)) child.Hooks {
		return h.bind(meta, typeName, 1, emit)
	}
}

// boundHooks are the hook points of one agent (agent.Hooks, child.Hooks).
type boundHooks struct {
	h        *hookPoints
	meta     event.Meta
	typeName string
	depth    int
	emit     func(event.Event)
}

// errHookDenied marks a call a PreToolUse hook refused.
var errHookDenied = errors.New("blocked by a PreToolUse hook")

// BeforeTool implements agent.Hooks: the PreToolUse hooks' decision and
// context, or an error for the model when a hook denied the call.
func (b *boundHooks) BeforeTool(ctx context.Context, call openai.ToolCall) (agent.HookAdvice, error) {
	if !b.h.has(hooks.PreToolUse) {
		return agent.HookAdvice{}, nil
	}
	in := b.h.input(b.meta, b.typeName, hooks.PreToolUse)
	in.Tool, in.ToolInput, in.ToolUseID = call.Function.Name, call.Function.Arguments, call.ID
	out := b.h.run(ctx, b.emit, b.meta, in)
	adv := agent.HookAdvice{Halted: out.Stop, HaltReason: out.StopReason}
	if out.Block || out.Decision == hooks.Deny {
		return adv, fmt.Errorf("%w: %s", errHookDenied, cmpText(out.Reason, "no reason given"))
	}
	adv.Decision, adv.Context = out.Decision, out.Context
	return adv, nil
}

// AfterTool implements agent.Hooks: what the PostToolUse hooks tell the
// model of a call that succeeded.
func (b *boundHooks) AfterTool(ctx context.Context, call openai.ToolCall, output string) agent.HookAdvice {
	if !b.h.has(hooks.PostToolUse) {
		return agent.HookAdvice{}
	}
	in := b.h.input(b.meta, b.typeName, hooks.PostToolUse)
	in.Tool, in.ToolInput, in.ToolUseID, in.ToolResponse = call.Function.Name, call.Function.Arguments, call.ID, output
	out := b.h.run(ctx, b.emit, b.meta, in)
	adv := agent.HookAdvice{Context: out.Context, Halted: out.Stop, HaltReason: out.StopReason}
	if out.Block {
		adv.Context = append(adv.Context, out.Reason)
	}
	return adv
}

// Stop implements agent.Hooks: the Stop hooks (SubagentStop for a child)
// at an answer; a block's reason, or added context, sends the agent on.
func (b *boundHooks) Stop(ctx context.Context, last string, active bool) agent.HookAdvice {
	ev := hooks.Stop
	if b.depth > 0 {
		ev = hooks.SubagentStop
	}
	if !b.h.has(ev) {
		return agent.HookAdvice{}
	}
	in := b.h.input(b.meta, b.typeName, ev)
	in.StopHookActive, in.LastMessage = active, last
	if ev == hooks.SubagentStop {
		in.AgentTranscript = b.h.transcript(b.meta.Agent)
	}
	out := b.h.run(ctx, b.emit, b.meta, in)
	adv := agent.HookAdvice{Context: out.Context, Halted: out.Stop, HaltReason: out.StopReason}
	if out.Block {
		adv.Context = append([]string{out.Reason}, adv.Context...)
	}
	return adv
}

// Ended implements agent.Hooks: the SubagentStop hooks of a child that
// ended without answering.
func (b *boundHooks) Ended(ctx context.Context, last string) {
	if !b.h.has(hooks.SubagentStop) {
		return
	}
	in := b.h.input(b.meta, b.typeName, hooks.SubagentStop)
	in.LastMessage, in.AgentTranscript = last, b.h.transcript(b.meta.Agent)
	b.h.run(ctx, b.emit, b.meta, in)
}

// Start implements child.Hooks: the SubagentStart hooks of a child about
// to run add their context to its prompt.
func (b *boundHooks) Start(ctx context.Context, prompt string) string {
	if !b.h.has(hooks.SubagentStart) {
		return prompt
	}
	out := b.h.run(ctx, b.emit, b.meta, b.h.input(b.meta, b.typeName, hooks.SubagentStart))
	return agent.WithHookNotes(prompt, hooks.SubagentStart, out.Context)
}

// cmpText returns a, or b when a is blank.
func cmpText(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}
