package convo

import (
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// A message that never streamed is added whole by its MessageDone, an
// empty one adds nothing, and a MessageDone's text wins over what
// streamed; the reasoning streaming while the message starts ends there;
// the agent's name follows its type once known.
func TestMessagesAndNames(t *testing.T) {
	m := New("")
	m.SetName("Explore\nagent")
	m.Apply(event.MessageDone{Text: "whole at once"})
	m.Apply(event.MessageDone{Text: "  "})
	m.Apply(event.ReasoningDelta{Text: "think"})
	m.Apply(event.TextDelta{Text: "draf"})
	m.Apply(event.MessageDone{Text: "final text"})
	entries := m.Entries()
	if len(entries) != 3 {
		t.Fatalf("entries %+v", entries)
	}
	if entries[0].Body != "whole at once" || entries[0].Title != "Explore agent" || entries[0].Live {
		t.Errorf("a message sent whole: %+v", entries[0])
	}
	if entries[1].Kind != Reasoning || entries[1].Live || entries[1].Body != "think" {
		t.Errorf("the thought: %+v", entries[1])
	}
	if entries[2].Body != "final text" {
		t.Errorf("the final text does not win: %+v", entries[2])
	}
	if m.Apply(event.StepStarted{}) {
		t.Error("an event the conversation does not show changed it")
	}
}

// A delegation card's prompt is the child's prompt, cleaned; another
// kind of card, or one without its preview, leaves it; a compaction
// without a summary is no entry; a woken turn's line is a notice.
func TestPromptsAndNotices(t *testing.T) {
	m := New("Explore")
	if m.Apply(event.ApprovalRequested{Request: &event.ApprovalRequest{Kind: event.ApproveTool}}) || m.Apply(event.ApprovalRequested{}) {
		t.Error("a tool card set the prompt")
	}
	m.Apply(event.ApprovalRequested{Request: &event.ApprovalRequest{Kind: event.ApproveDelegation,
		Delegation: &event.DelegationPreview{Prompt: "find \x1b[2Jauth"}}})
	if m.Prompt() != "find auth" {
		t.Errorf("prompt %q", m.Prompt())
	}
	if m.Apply(event.Compacted{}) {
		t.Error("a compaction without a summary is an entry")
	}
	m.Apply(event.TurnStarted{Prompt: "the result of explore-2 arrived", Wake: true})
	m.Apply(event.UsageReported{Total: event.Usage{TotalTokens: 42}})
	last := m.Last(1)
	if len(last) != 1 || last[0].Kind != Notice || m.Usage().TotalTokens != 42 {
		t.Errorf("a woken turn: %+v, usage %+v", last, m.Usage())
	}
}
