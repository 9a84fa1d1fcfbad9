package agent

import (
	"fmt"
	"slices"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/seed-e4e525a6/baton/engine/tools"
)

// Pictures reach a model as image parts of a user message: chat
// completions take images in user messages only (OpenAI refuses them in
// tool messages, and most OpenAI-compatible servers follow it), so the
// pictures of a batch of tool results follow the results in one user
// message, each under a line naming its call. Between the results and
// that message stands a short assistant message: Mistral's API and the
// chat templates of its models refuse a user message right after a tool
// result, and every other provider takes the bridge as it is. Each part
// is spelled {"type":"image_url","image_url":{"url":"data:…"}}, without
// the optional detail some servers do not know. A model the catalogue
// does not know to take images gets the placeholders alone.

// TakesImages reports whether the agent's current model takes images, by
// the catalogue (an unknown model is taken not to).
func (a *Agent) TakesImages() bool {
	info, ok := a.cfg.Catalog.Lookup(a.model())
	return ok && info.SupportsImages
}

// imageParts are the pictures as content parts.
func imageParts(images []tools.Image) []openai.ChatMessagePart {
	parts := make([]openai.ChatMessagePart, len(images))
	for i, img := range images {
		parts[i] = openai.ChatMessagePart{Type: openai.ChatMessagePartTypeImageURL, ImageURL: &openai.ChatMessageImageURL{URL: img.DataURL()}}
	}
	return parts
}

// UserMessage is a prompt as the model gets it: plain text, or text and
// pictures when there are any and the model takes them (the text names
// each picture by its placeholder either way).
func UserMessage(text string, images []tools.Image, takesImages bool) openai.ChatCompletionMessage {
	if len(images) == 0 || !takesImages {
		return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: text}
	}
	parts := append([]openai.ChatMessagePart{{Type: openai.ChatMessagePartTypeText, Text: text}}, imageParts(images)...)
	return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, MultiContent: parts}
}

// imagesBridge is the assistant's line between tool results and the
// pictures that follow them.
const imagesBridge = "Some of these results are images; they follow."

// resultImages are the messages that follow a batch's results with their
// pictures: the bridge, then a user message holding each call's pictures
// under a line naming it; none when there are no pictures.
func resultImages(calls []openai.ToolCall, results []callResult) []openai.ChatCompletionMessage {
	var parts []openai.ChatMessagePart
	for i, call := range calls {
		if len(results[i].images) == 0 {
			continue
		}
		parts = append(parts, openai.ChatMessagePart{Type: openai.ChatMessagePartTypeText,
			Text: fmt.Sprintf("Images returned by %s (call %s):", call.Function.Name, call.ID)})
		parts = append(parts, imageParts(results[i].images)...)
	}
	if len(parts) == 0 {
		return nil
	}
	return []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleAssistant, Content: imagesBridge},
		{Role: openai.ChatMessageRoleUser, MultiContent: parts},
	}
}

// imagesAttached is added to a tool result whose pictures follow.
const imagesAttached = "\n[the images of this result follow in a message after the results]"

// requestMessages are the history as the next request sends it: the
// system prompt with the MCP servers' instructions, and, for a model that
// takes no images (the person may have switched to one), every picture
// replaced by a note.
func (a *Agent) requestMessages() []openai.ChatCompletionMessage {
	msgs := a.history
	extra := ""
	if a.cfg.Instructions != nil {
		extra = a.cfg.Instructions()
	}
	images := a.TakesImages()
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
				out[i] = withoutImages(m, "[image not shown: this model takes no images]")
			}
		}
	}
	return out
}

// hasImages reports whether m carries pictures.
func hasImages(m openai.ChatCompletionMessage) bool {
	return slices.ContainsFunc(m.MultiContent, func(p openai.ChatMessagePart) bool { return p.Type == openai.ChatMessagePartTypeImageURL })
}

// withoutImages is m as plain text, each picture replaced by note.
func withoutImages(m openai.ChatCompletionMessage, note string) openai.ChatCompletionMessage {
	var texts []string
	for _, p := range m.MultiContent {
		if p.Type == openai.ChatMessagePartTypeImageURL {
			texts = append(texts, note)
			continue
		}
		texts = append(texts, p.Text)
	}
	m.MultiContent, m.Content = nil, strings.Join(texts, "\n")
	return m
}
