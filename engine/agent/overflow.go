package agent

import (
	"errors"
	"fmt"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm"
)

// keptToolResults is how many of the newest tool results survive a
// compaction whole: the model is most likely still working with them.
const keptToolResults = 4

// elided replaces a tool result dropped to fit the context window.
const elided = "[output elided to fit the context window; call the tool again if you need it]"

// contextOverflow reports whether the provider refused a request for
// being longer than the model's context window.
func contextOverflow(err error) bool {
	var pe *llm.ProviderError
	if !errors.As(err, &pe) {
		return false
	}
	text := strings.ToLower(pe.Message + " " + pe.Reason)
	for _, sign := range []string{"context_length_exceeded", "maximum context length", "context length", "context window", "too many tokens", "prompt is too long"} {
		if strings.Contains(text, sign) {
			return true
		}
	}
	return false
}

// elide shortens the history after a context overflow by eliding all
// but the newest tool results, the bulk of most agent histories, and all
// but the newest pictures. It reports whether anything changed, so a
// request is retried only when it can succeed.
func (a *Agent) elide() bool {
	var results, pictures []int
	for i, m := range a.history {
		if m.Role == openai.ChatMessageRoleTool && m.Content != elided {
			results = append(results, i)
		}
		if hasImages(m) {
			pictures = append(pictures, i)
		}
	}
	results, pictures = results[:max(0, len(results)-keptToolResults)], pictures[:max(0, len(pictures)-keptToolResults)]
	if len(results) == 0 && len(pictures) == 0 {
		return false
	}
	dropped := 0
	for _, i := range results {
		dropped += len(a.history[i].Content)
		a.history[i].Content = elided
	}
	for _, i := range pictures {
		a.history[i] = withoutImages(a.history[i], "[image elided to fit the context window]")
	}
	what := fmt.Sprintf("%d older tool results (%d characters)", len(results), dropped)
	if len(pictures) > 0 {
		what += fmt.Sprintf(" and the images of %d older messages", len(pictures))
	}
	a.Emit(event.Notice{Meta: a.Stamp(), Text: "the conversation outgrew the model's context window; elided " + what + " and retried"})
	return true
}
