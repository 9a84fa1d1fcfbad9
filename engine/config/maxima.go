package config

import (
	"fmt"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/mcp"
)

// bounded is a config key with a hard maximum: every size, count and
// timeout is bounded, so no file (a cloned repository's included) can make
// a wait, a reply or a tool result unbounded. A value above the maximum is
// refused rather than quietly lowered, so the person learns the real
// limit from the message: the user's file stops the start, a project's
// key is dropped with a notice.
type bounded struct {
	key string
	// field is the file's field, so a project's value can be dropped.
	field **count
	max   int
}

// check refuses a value above the maximum.
func (b bounded) check() error {
	if v := *b.field; v != nil && int(*v) > b.max {
		return fmt.Errorf("%s: expected at most %d, got %d", b.key, b.max, int(*v))
	}
	return nil
}

// maxima are the bounded keys of fc.
func maxima(fc *fileConfig) []bounded {
	m := engine.MaxLimits
	l := &fc.Limits
	keys := []bounded{
		{"max_steps", &fc.MaxSteps, m.MaxSteps},
		{"limits.child_steps_read_only", &l.ChildStepsReadOnly, m.ChildStepsReadOnly},
		{"limits.child_steps_write", &l.ChildStepsWrite, m.ChildStepsWrite},
		{"limits.child_timeout_s", &l.ChildTimeoutS, inSeconds(m.ChildTimeout)},
		{"limits.tool_output_chars", &l.ToolOutputChars, m.ToolOutputChars},
		{"limits.result_chars", &l.ResultChars, m.ResultChars},
		{"limits.max_concurrent", &l.MaxConcurrent, m.MaxConcurrent},
		{"limits.max_depth", &l.MaxDepth, m.MaxDepth},
		{"limits.command_timeout_s", &l.CommandTimeoutS, inSeconds(m.CommandTimeout)},
		{"limits.reply_max_bytes", &l.ReplyMaxBytes, m.ReplyMaxBytes},
		{"limits.context_file_bytes", &l.ContextFileBytes, m.ContextFileBytes},
		{"limits.wake_turns_per_prompt", &l.WakeTurnsPerPrompt, m.WakeTurns},
		{"limits.background_per_prompt", &l.BackgroundPerPrompt, m.BackgroundPerPrompt},
		{"limits.verify_timeout_s", &l.VerifyTimeoutS, inSeconds(m.VerifyTimeout)},
	}
	keys = append(keys, bounded{"mcp.call_timeout_s", &fc.MCP.CallTimeoutS, inSeconds(mcp.MaxCallTimeout)})
	if fc.Runners.Container != nil {
		keys = append(keys, bounded{"runner.container.max_concurrent", &fc.Runners.Container.MaxConcurrent, m.MaxConcurrent})
	}
	return append(keys, networkMaxima(&fc.Network)...)
}

// checkMaxima refuses the first key of fc set above its maximum.
func checkMaxima(fc *fileConfig) error {
	for _, b := range maxima(fc) {
		if err := b.check(); err != nil {
			return err
		}
	}
	return nil
}

// dropAboveMaxima drops every key of fc set above its maximum and says
// which.
func dropAboveMaxima(fc *fileConfig) []error {
	var dropped []error
	for _, b := range maxima(fc) {
		if err := b.check(); err != nil {
			*b.field = nil
			dropped = append(dropped, err)
		}
	}
	return dropped
}

// inSeconds is a maximum duration as the whole seconds a file writes.
func inSeconds(d time.Duration) int { return int(d / time.Second) }
