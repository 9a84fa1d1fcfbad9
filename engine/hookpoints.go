package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/hooks"
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
	rec       *recorder
}

// newHookPoints is nil without hooks; the session sets rec once its
// transcript is open.
func newHookPoints(cfg Config) *hookPoints {
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
	mode := map[PermissionMode]string{ModeAsk: "default", ModeHeadless: "dontAsk", ModeYolo: "bypassPermissions"}[cfg.Mode]
	return &hookPoints{runner: runner, sessionID: id, mode: mode, workspace: cfg.Workspace}
}

// has reports whether any hook runs at ev.
func (h *hookPoints) has(ev hooks.Event) bool { return h != nil && h.runner.Has(ev) }

// input is what every event tells a hook, with a child's identity when
// a is a child.
func (h *hookPoints) input(a *Agent, ev hooks.Event) hooks.Input {
	in := hooks.Input{Event: ev, SessionID: h.sessionID, TranscriptPath: h.rec.fileOf(event.MainAgent), Cwd: h.workspace, PermissionMode: h.mode}
	if a != nil && a.meta.Agent != event.MainAgent {
		in.AgentID, in.AgentType = string(a.meta.Agent), a.typeName
	}
	return in
}

// run runs the hooks of in and tells the person what they have to say:
// messages, a stop's reason, and each hook's first failure.
func (h *hookPoints) run(ctx context.Context, emit func(event.Event), stamp func() event.Meta, in hooks.Input) hooks.Outcome {
	out := h.runner.Run(ctx, in)
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

// errHookDenied marks a call a PreToolUse hook refused.
var errHookDenied = errors.New("blocked by a PreToolUse hook")

// beforeTool runs the PreToolUse hooks of a call. It returns their
// decision ("", allow or ask) and context for the model, or an error
// for the model when a hook denied the call.
func (h *hookPoints) beforeTool(ctx context.Context, a *Agent, call openai.ToolCall) (string, []string, error) {
	if !h.has(hooks.PreToolUse) {
		return "", nil, nil
	}
	in := h.input(a, hooks.PreToolUse)
	in.Tool, in.ToolInput, in.ToolUseID = call.Function.Name, call.Function.Arguments, call.ID
	out := h.run(ctx, a.emit, a.stamp, in)
	if out.Stop {
		a.halted.set(out.StopReason)
	}
	if out.Block || out.Decision == hooks.Deny {
		return "", nil, fmt.Errorf("%w: %s", errHookDenied, cmpText(out.Reason, "no reason given"))
	}
	return out.Decision, out.Context, nil
}

// afterTool runs the PostToolUse hooks of a call that succeeded and adds
// what they tell the model to its result.
func (h *hookPoints) afterTool(ctx context.Context, a *Agent, call openai.ToolCall, res *tools.Result) {
	if !h.has(hooks.PostToolUse) {
		return
	}
	in := h.input(a, hooks.PostToolUse)
	in.Tool, in.ToolInput, in.ToolUseID, in.ToolResponse = call.Function.Name, call.Function.Arguments, call.ID, res.Output
	out := h.run(ctx, a.emit, a.stamp, in)
	if out.Stop {
		a.halted.set(out.StopReason)
	}
	notes := out.Context
	if out.Block {
		notes = append(notes, out.Reason)
	}
	res.Output = withHookNotes(res.Output, hooks.PostToolUse, notes)
}

// withHookNotes appends what hooks of ev said to the model to text.
func withHookNotes(text string, ev hooks.Event, notes []string) string {
	for _, n := range notes {
		if n = strings.TrimSpace(n); n != "" {
			text += fmt.Sprintf("\n\n[%s hook] %s", ev, n)
		}
	}
	return text
}

// beforePrompt waits for the SessionStart hooks, then runs the
// UserPromptSubmit hooks of a prompt the person sent. It returns the
// prompt with the context both add, or blocked with the reason to tell
// the person.
func (s *Session) beforePrompt(ctx context.Context, prompt string) (string, bool, string) {
	h, a := s.hooks, s.main
	prompt = withHookNotes(prompt, hooks.SessionStart, s.starting.take(ctx))
	if !h.has(hooks.UserPromptSubmit) {
		return prompt, false, ""
	}
	in := h.input(a, hooks.UserPromptSubmit)
	in.Prompt = prompt
	out := h.run(ctx, a.emit, a.stamp, in)
	if out.Block || out.Stop {
		why := cmpText(cmpText(out.Reason, out.StopReason), "no reason given")
		a.emit(event.Notice{Meta: a.stamp(), Text: "a UserPromptSubmit hook blocked the prompt: " + why})
		return "", true, why
	}
	return withHookNotes(prompt, hooks.UserPromptSubmit, out.Context), false, ""
}

// stopHook runs the Stop hooks (SubagentStop for a child) when the
// agent answered without calling tools, and reports whether a hook sent
// it on: a block's reason, or added context, becomes its next message.
func (h *hookPoints) stopHook(ctx context.Context, a *Agent, run *runState, last string) bool {
	ev := hooks.Stop
	if a.depth > 0 {
		ev = hooks.SubagentStop
	}
	run.stopHooked = true
	if !h.has(ev) {
		return false
	}
	in := h.input(a, ev)
	in.StopHookActive, in.LastMessage = run.stopContinued, last
	if ev == hooks.SubagentStop {
		in.AgentTranscript = h.rec.fileOf(a.meta.Agent)
	}
	out := h.run(ctx, a.emit, a.stamp, in)
	notes := out.Context
	if out.Block {
		notes = append([]string{out.Reason}, notes...)
	}
	if out.Stop || len(notes) == 0 {
		return false
	}
	run.stopContinued = true
	a.emit(event.Notice{Meta: a.stamp(), Text: fmt.Sprintf("a %s hook sent the agent on: %s", ev, firstLine(notes[0]))})
	a.addHistory(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: strings.TrimSpace(withHookNotes("", ev, notes))})
	return true
}

// childEnded runs the SubagentStop hooks of a child that ended without
// answering (a limit, a failure), so they see every child's end; they
// cannot send it on. A child stopped because baton is closing has none.
func (h *hookPoints) childEnded(ctx context.Context, a *Agent, run *runState) {
	if a.depth == 0 || run.stopHooked || !h.has(hooks.SubagentStop) || errors.Is(context.Cause(ctx), errSessionClosed) {
		return
	}
	in := h.input(a, hooks.SubagentStop)
	in.LastMessage, in.AgentTranscript = run.text, h.rec.fileOf(a.meta.Agent)
	h.run(context.WithoutCancel(ctx), a.emit, a.stamp, in)
}

// subagentStart runs the SubagentStart hooks of a child about to run and
// returns its prompt with the context they add.
func (h *hookPoints) subagentStart(ctx context.Context, child *Agent, prompt string) string {
	if !h.has(hooks.SubagentStart) {
		return prompt
	}
	out := h.run(ctx, child.emit, child.stamp, h.input(child, hooks.SubagentStart))
	return withHookNotes(prompt, hooks.SubagentStart, out.Context)
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
	h.reason, h.pending = cmpText(reason, "no reason given"), true
}

// take returns the stop's reason, once.
func (h *halt) take() (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	reason, ok := h.reason, h.pending
	h.reason, h.pending = "", false
	return reason, ok
}

// cmpText returns a, or b when a is blank.
func cmpText(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}
