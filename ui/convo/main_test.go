package convo

import (
	"reflect"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

var mainMeta = event.Meta{Agent: event.MainAgent}

// The main agent's turns build the same model a child's events do:
// prompts, a wake line, streamed text in the place it began (an error
// mid-answer after it, not before), a call and a message the
// interruption cut short, and a compaction.
func TestMainAgentTurns(t *testing.T) {
	m := New("")
	for _, ev := range []event.Event{
		event.TurnStarted{Meta: mainMeta, Prompt: "plan it\n"},
		event.TextDelta{Meta: mainMeta, Text: "Half an"},
		event.ErrorOccurred{Meta: mainMeta, Message: "stream: unexpected EOF"},
		event.MessageDone{Meta: mainMeta, Text: "Half an answer"},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusFailed},
		event.TurnStarted{Meta: mainMeta, Prompt: "[Explore] finished", Wake: true},
		event.ToolStarted{Meta: mainMeta, CallID: "c1", Name: "bash", Title: "bash make"},
		event.TextDelta{Meta: mainMeta, Text: "and then"},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusInterrupted},
		event.TurnStarted{Meta: mainMeta, Prompt: "go on"},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusMaxSteps},
		event.Compacted{Meta: mainMeta, Replaced: 1, Focus: "auth", Summary: "we planned"},
	} {
		m.Apply(ev)
	}
	var got []Entry
	for i := range m.Len() {
		e := m.At(i)
		got = append(got, Entry{Kind: e.Kind, Title: e.Title, Body: e.Body, Stopped: e.Stopped, IsError: e.IsError})
	}
	want := []Entry{
		{Kind: Prompt, Title: "you", Body: "plan it"},
		{Kind: Text, Body: "Half an answer"},
		{Kind: Notice, Title: "error", Body: "stream: unexpected EOF", IsError: true},
		{Kind: Notice, Title: "notice", Body: "[Explore] finished"},
		{Kind: ToolCall, Title: "bash make", Stopped: true},
		{Kind: Text, Body: "and then", Stopped: true},
		{Kind: Prompt, Title: "you", Body: "go on"},
		{Kind: Notice, Title: "stopped", Body: "stopped: the step limit was reached", Stopped: true},
		{Kind: Compaction, Title: "compacted: 1 message replaced by a summary (focus: auth)", Body: "we planned"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("entries\n%+v\nwant\n%+v", got, want)
	}
}

// A view caches an entry by its version: the version moves while the
// entry streams and once more when it closes, and an entry read before
// keeps its index as the conversation grows.
func TestEntriesKeepTheirPlaceAndVersion(t *testing.T) {
	m := New("")
	m.Apply(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	m.Apply(event.TextDelta{Meta: mainMeta, Text: "a"})
	v := m.At(1).Version
	m.Apply(event.TextDelta{Meta: mainMeta, Text: "b"})
	if e := m.At(1); e.Version == v || e.Body != "ab" || !e.Live {
		t.Fatalf("streaming entry %+v (version was %d)", e, v)
	}
	v = m.At(1).Version
	m.Apply(event.MessageDone{Meta: mainMeta, Text: "abc"})
	m.Apply(event.ToolStarted{Meta: mainMeta, CallID: "c", Name: "grep", Title: "grep x"})
	if e := m.At(1); e.Version == v || e.Body != "abc" || e.Live || m.At(2).Kind != ToolCall {
		t.Errorf("closed entry %+v, then %+v", e, m.At(2))
	}
}

// A child's report is kept by its conversation when it ends, whole.
func TestReportIsTheChildsFinalText(t *testing.T) {
	m := New("Explore")
	if m.Report() != "" {
		t.Fatal("a report before the end")
	}
	m.Apply(event.AgentFinished{Meta: meta, Status: event.StatusCompleted, Text: "\n# Findings\n\nline one\n\nline two\n"})
	if m.Report() != "# Findings\n\nline one\n\nline two" {
		t.Errorf("report %q", m.Report())
	}
}
