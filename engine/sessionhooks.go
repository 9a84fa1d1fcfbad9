package engine

import (
	"context"
	"fmt"
	"sync"

	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/hooks"
)

// starting holds what the latest SessionStart hooks said, for the next
// prompt: the first turn waits for them, so their context is not lost to
// a person who types fast.
type starting struct {
	mu      sync.Mutex
	done    chan struct{}
	context []string
}

// begin marks a run of SessionStart hooks under way; finish ends it.
func (st *starting) begin() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.done = make(chan struct{})
}

func (st *starting) finish(context []string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.context = append(st.context, context...)
	close(st.done)
}

// take waits for the hooks under way (or ctx) and returns their context,
// once.
func (st *starting) take(ctx context.Context) []string {
	st.mu.Lock()
	done := st.done
	st.mu.Unlock()
	if done != nil {
		select {
		case <-done:
		case <-ctx.Done():
			return nil
		}
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	out := st.context
	st.context = nil
	return out
}

// mainMeta is the main agent's identity, which session hooks speak as.
var mainMeta = event.Meta{Agent: event.MainAgent}

// startHooks runs the SessionStart hooks in the background, source
// saying why ("startup", "resume", "clear", "compact"); the next prompt
// carries their context. endReason, when set, first runs the SessionEnd
// hooks of the conversation that ends (/clear).
func (s *Session) startHooks(source, endReason string) {
	h := s.hooks
	if !h.has(hooks.SessionStart) && (endReason == "" || !h.has(hooks.SessionEnd)) {
		return
	}
	s.starting.begin()
	err := host{s}.Go(func() {
		var context []string
		defer func() { s.starting.finish(context) }()
		if endReason != "" {
			s.sessionEnd(s.ctx, endReason)
		}
		if h.has(hooks.SessionStart) {
			in := h.input(mainMeta, "", hooks.SessionStart)
			in.Source, in.Model = source, s.Model()
			context = h.run(s.ctx, s.emit, mainMeta, in).Context
		}
	})
	if err != nil {
		s.starting.finish(nil)
	}
}

// sessionEnd runs the SessionEnd hooks; their answers change nothing.
func (s *Session) sessionEnd(ctx context.Context, reason string) {
	if !s.hooks.has(hooks.SessionEnd) {
		return
	}
	in := s.hooks.input(mainMeta, "", hooks.SessionEnd)
	in.Reason = reason
	s.hooks.run(ctx, s.emit, mainMeta, in)
}

// preCompact runs the PreCompact hooks before a compaction of the main
// agent's history.
func (s *Session) preCompact(ctx context.Context, auto bool, focus string) {
	if !s.hooks.has(hooks.PreCompact) {
		return
	}
	in := s.hooks.input(mainMeta, "", hooks.PreCompact)
	in.Trigger, in.Instructions = "manual", focus
	if auto {
		in.Trigger = "auto"
	}
	s.hooks.run(ctx, s.emit, mainMeta, in)
}

// notifyHooks runs the Notification hooks of a card that waits for the
// person, in the background: the card must not wait for them. A session
// that ends meanwhile lets them finish, bounded by their timeouts, as
// SessionEnd's: a notification cut off half-written helps no one.
func (s *Session) notifyHooks(req *event.ApprovalRequest) {
	if !s.hooks.has(hooks.Notification) {
		return
	}
	in := s.hooks.input(mainMeta, "", hooks.Notification)
	in.NotificationType, in.Title = "permission_prompt", "baton"
	switch {
	case req.Delegation != nil:
		in.Message = fmt.Sprintf("baton needs your approval to delegate to %s", req.Delegation.AgentType)
	default:
		in.Message = fmt.Sprintf("baton needs your permission to use %s", hooks.ClaudeToolName(req.Tool))
	}
	_ = host{s}.Go(func() { s.hooks.run(context.WithoutCancel(s.ctx), s.emit, mainMeta, in) })
}

// HookStatus lists the configured hooks with what each did last (/hooks).
func (s *Session) HookStatus() []event.HookStatus {
	if s.hooks == nil {
		return nil
	}
	return s.hooks.runner.Status()
}

// beforePrompt waits for the SessionStart hooks, then runs the
// UserPromptSubmit hooks of a prompt the person sent. It returns the
// prompt with the context both add, or blocked with the reason to tell
// the person.
func (s *Session) beforePrompt(ctx context.Context, prompt string) (string, bool, string) {
	h := s.hooks
	prompt = agent.WithHookNotes(prompt, hooks.SessionStart, s.starting.take(ctx))
	if !h.has(hooks.UserPromptSubmit) {
		return prompt, false, ""
	}
	in := h.input(mainMeta, "", hooks.UserPromptSubmit)
	in.Prompt = prompt
	out := h.run(ctx, s.emit, mainMeta, in)
	if out.Block || out.Stop {
		why := cmpText(cmpText(out.Reason, out.StopReason), "no reason given")
		s.emit(event.Notice{Meta: s.main.Stamp(), Text: "a UserPromptSubmit hook blocked the prompt: " + why})
		return "", true, why
	}
	return agent.WithHookNotes(prompt, hooks.UserPromptSubmit, out.Context), false, ""
}
