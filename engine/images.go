package engine

import (
	"fmt"
	"slices"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Pictures reach a model as image parts of a user message: chat
// completions take images in user messages only (OpenAI refuses them in
// tool messages, and most OpenAI-compatible providers follow it), so the
// pictures of a batch of tool results follow the results in one user
// message, each under a line naming its call. A model the catalogue does
// not know to take images gets the placeholders alone.

// takesImages reports whether the agent's current model takes images, by
// the catalogue (an unknown model is taken not to).
func (a *Agent) takesImages() bool {
	info, ok := a.catalog.Lookup(a.model())
	return ok && info.SupportsImages
}

// imageParts are the pictures as content parts.
func imageParts(images []tools.Image) []openai.ChatMessagePart {
	parts := make([]openai.ChatMessagePart, len(images))
	for i, img := range images {
		parts[i] = openai.ChatMessagePart{Type: openai.ChatMessagePartTypeImageURL,
			ImageURL: &openai.ChatMessageImageURL{URL: img.DataURL(), Detail: openai.ImageURLDetailAuto}}
	}
	return parts
}

// userMessage is a prompt as the model gets it: plain text, or text and
// pictures when there are any and the model takes them (the text names
// each picture by its placeholder either way).
func userMessage(text string, images []tools.Image, takesImages bool) openai.ChatCompletionMessage {
	if len(images) == 0 || !takesImages {
		return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: text}
	}
	parts := append([]openai.ChatMessagePart{{Type: openai.ChatMessagePartTypeText, Text: text}}, imageParts(images)...)
	return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, MultiContent: parts}
}

// resultImages is the user message holding the pictures of a batch's
// results, each call's under a line naming it; ok is false when there are
// none.
func resultImages(calls []openai.ToolCall, results []callResult) (openai.ChatCompletionMessage, bool) {
	var parts []openai.ChatMessagePart
	for i, call := range calls {
		if len(results[i].images) == 0 {
			continue
		}
		parts = append(parts, openai.ChatMessagePart{Type: openai.ChatMessagePartTypeText,
			Text: fmt.Sprintf("Images returned by %s (call %s):", call.Function.Name, call.ID)})
		parts = append(parts, imageParts(results[i].images)...)
	}
	return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, MultiContent: parts}, len(parts) > 0
}

// imagesAttached is added to a tool result whose pictures follow.
const imagesAttached = "\n[the images of this result follow in the next message]"

// requestMessages are the history as the next request sends it: the
// system prompt with the MCP servers' instructions, and, for a model that
// takes no images (the person may have switched to one), every picture
// replaced by a note.
func (a *Agent) requestMessages() []openai.ChatCompletionMessage {
	msgs := a.history
	extra := ""
	if a.instructions != nil {
		extra = a.instructions()
	}
	images := a.takesImages()
	if extra == "" && (images || !slices.ContainsFunc(msgs, hasImages)) {
		return msgs
	}
	out := slices.Clone(msgs)
	if extra != "" && len(out) > 0 && out[0].Role == openai.ChatMessageRoleSystem {
		out[0].Content += extra
	}
	if !images {
		for i, m := range out {
			if hasImages(m) {
				out[i] = withoutImages(m)
			}
		}
	}
	return out
}

// hasImages reports whether m carries pictures.
func hasImages(m openai.ChatCompletionMessage) bool {
	return slices.ContainsFunc(m.MultiContent, func(p openai.ChatMessagePart) bool { return p.Type == openai.ChatMessagePartTypeImageURL })
}

// withoutImages is m as plain text, each picture a note.
func withoutImages(m openai.ChatCompletionMessage) openai.ChatCompletionMessage {
	var texts []string
	for _, p := range m.MultiContent {
		if p.Type == openai.ChatMessagePartTypeImageURL {
			texts = append(texts, "[image not shown: this model takes no images]")
			continue
		}
		texts = append(texts, p.Text)
	}
	m.MultiContent, m.Content = nil, strings.Join(texts, "\n")
	return m
}
