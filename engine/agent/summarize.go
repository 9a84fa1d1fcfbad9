package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// compactPrompt asks for the summary that replaces the history.
const compactPrompt = `Summarize this conversation so that you can continue the work from the summary alone; the messages above will be replaced by it.
Keep: the person's goals and requests, decisions made and why, files read or changed (with paths), commands run and their outcome, errors met, and what remains to do.
Be specific and concise; write it as notes to yourself. Reply with the summary only.`

// Summarize asks the model, without tools, for a summary of the history
// that can replace it; focus says what to keep above all. The request is
// the agent's own (retries, fallback, overflow handling) over a copy of
// the history; its text is not streamed as an answer.
func (a *Agent) Summarize(ctx context.Context, focus string) (string, event.Usage, error) {
	saved, emit := a.history, a.cfg.Emit
	defer func() { a.history, a.cfg.Emit = saved, emit }()
	ask := compactPrompt
	if focus = strings.TrimSpace(focus); focus != "" {
		ask += "\nFocus above all on: " + focus
	}
	a.history = append(slices.Clip(saved), openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: ask})
	a.cfg.Emit = func(ev event.Event) {
		switch ev.(type) {
		case event.TextDelta, event.ReasoningDelta, event.UsageReported:
			return // the summary is shown whole by Compacted
		}
		emit(ev)
	}
	resp, err := a.requestWithRetry(ctx, false)
	if err != nil && contextOverflow(err) && a.elide() {
		resp, err = a.requestWithRetry(ctx, false)
	}
	var usage event.Usage
	if resp.HasUsage {
		usage = a.cfg.Catalog.Cost(a.model(), resp.Usage)
	}
	if err != nil {
		return "", usage, fmt.Errorf("summarize the conversation: %w", err)
	}
	summary := strings.TrimSpace(resp.Content)
	if summary == "" {
		return "", usage, errors.New("summarize the conversation: the model returned an empty summary")
	}
	return summary, usage, nil
}
