package convo

import (
	"reflect"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

var meta = event.Meta{Agent: "explore-1", AgentType: "Explore", Parent: event.MainAgent}

// events are a child's events as they reach the model: cleaned where
// they entered the UI.
func events() []event.Event {
	var out []event.Event
	for _, ev := range dirty() {
		out = append(out, termtext.Event(ev))
	}
	return out
}

func dirty() []event.Event {
	return []event.Event{
		event.AgentStarted{Meta: meta, Prompt: "Find \x1b[31mauth\x1b[0m."},
		event.ReasoningDelta{Meta: meta, Text: "look in "},
		event.ReasoningDelta{Meta: meta, Text: "internal/"},
		event.TextDelta{Meta: meta, Text: "I'll grep."},
		event.MessageDone{Meta: meta, Text: "I'll grep."},
		event.ToolStarted{Meta: meta, CallID: "c1", Name: "grep", Title: "grep Auth\r"},
		event.ToolFinished{Meta: meta, CallID: "c1", Name: "grep", Summary: "2 matches", Output: "a.go:1\nb.go:2\n"},
		event.ToolStarted{Meta: meta, CallID: "c2", Name: "edit_file", Title: "edit_file a.go"},
		event.ToolFinished{Meta: meta, CallID: "c2", Name: "edit_file", Denied: true, DenyReason: "not now", IsError: true},
		event.AgentMessage{Meta: meta, Text: "check b.go too"},
		event.ErrorOccurred{Meta: meta, Message: "rate limited (429)"},
		event.ToolStarted{Meta: meta, CallID: "c3", Name: "read_file", Title: "read_file b.go"},
		event.UsageReported{Meta: meta, Total: event.Usage{TotalTokens: 1200}},
	}
}

// Live events and a transcript's recorded ones build the same model.
func TestLiveAndRecordedAgree(t *testing.T) {
	live := New("Explore")
	for _, ev := range events() {
		live.Apply(ev)
	}
	recorded := FromEvents("Explore", events())
	if !reflect.DeepEqual(live.Entries(), recorded.Entries()) {
		t.Errorf("live\n%+v\nrecorded\n%+v", live.Entries(), recorded.Entries())
	}
	e := live.Entries()
	var kinds []Kind
	for _, en := range e {
		kinds = append(kinds, en.Kind)
	}
	want := []Kind{Prompt, Reasoning, Text, ToolCall, ToolCall, Message, Notice, ToolCall}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("kinds %v, want %v", kinds, want)
	}
	if e[0].Body != "Find auth." || e[3].Title != "grep Auth" || e[3].Summary != "2 matches" || e[3].Body != "a.go:1\nb.go:2" || !e[3].Done {
		t.Errorf("prompt or call not cleaned and kept: %+v %+v", e[0], e[3])
	}
	if e[4].Summary != "denied: not now" || !e[4].Denied || e[4].Body != "" {
		t.Errorf("denied call %+v", e[4])
	}
	if !e[6].IsError || e[6].Body != "rate limited (429)" || e[7].Done {
		t.Errorf("error %+v, open call %+v", e[6], e[7])
	}
	if live.Usage().TotalTokens != 1200 || live.Prompt() != "Find auth." {
		t.Errorf("usage %+v prompt %q", live.Usage(), live.Prompt())
	}
	live.End("no result: stopped")
	live.Append(Entry{Kind: Status, Title: "stopped"})
	e = live.Entries()
	if e[7].Summary != "no result: stopped" || e[8].Kind != Status {
		t.Errorf("after End: %+v %+v", e[7], e[8])
	}
}

// What streams shows as live entries in the place it began; text closes
// the thinking before it; a message's final text replaces what was
// streamed.
func TestStreaming(t *testing.T) {
	m := New("Plan")
	m.Apply(event.ReasoningDelta{Meta: meta, Text: "hmm"})
	m.Apply(termtext.Event(event.TextDelta{Meta: meta, Text: "draft \x1b[2Jone"}))
	last := m.Last(2)
	if len(last) != 2 || last[0].Live || last[0].Kind != Reasoning || last[0].Body != "hmm" || !last[1].Live || last[1].Body != "draft one" || last[1].Title != "Plan" {
		t.Fatalf("live entries %+v", last)
	}
	v := m.Version()
	m.Apply(event.MessageDone{Meta: meta, Text: "final one"})
	if m.Version() == v {
		t.Error("the version did not move")
	}
	e := m.Entries()
	if len(e) != 2 || e[1].Body != "final one" || e[1].Live {
		t.Errorf("after the message: %+v", e)
	}
	if m.Apply(event.StepStarted{Meta: meta, Step: 2}) {
		t.Error("a step changed the conversation")
	}
	for i := range 30 {
		m.Apply(event.Notice{Meta: meta, Text: strings.Repeat("n", i)})
	}
	if got := m.Last(16); len(got) != 16 || got[15].Body != strings.Repeat("n", 29) {
		t.Errorf("Last(16) has %d entries", len(got))
	}
}
