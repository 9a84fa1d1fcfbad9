package termtext

import (
	"reflect"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// Every text an event carries comes out clean, and the event's own
// slices are not written to: the engine may still hold them.
func TestEventCleansEveryText(t *testing.T) {
	const bad = "a\x1b[2Jb\x07"
	m := event.Meta{Agent: "x-1", AgentType: bad, Description: bad}
	tools := []string{bad}
	for _, ev := range []event.Event{
		event.TurnStarted{Meta: m, Prompt: bad}, event.TextDelta{Meta: m, Text: bad}, event.ReasoningDelta{Meta: m, Text: bad},
		event.MessageDone{Meta: m, Text: bad}, event.ToolStarted{Meta: m, Name: bad, Args: bad, Title: bad},
		event.ToolFinished{Meta: m, Name: bad, Summary: bad, Output: bad, Diff: bad, DenyReason: bad},
		event.Notice{Meta: m, Text: bad}, event.ErrorOccurred{Meta: m, Message: bad}, event.Retrying{Meta: m, Reason: bad},
		event.TurnEnded{Meta: m, Text: bad},
		event.AgentStarted{Meta: m, Prompt: bad, Model: bad, Tools: tools, Transcript: bad, Sandbox: bad, TypeName: bad},
		event.AgentPlaced{Meta: m, Where: bad},
		event.AgentMessage{Meta: m, Text: bad}, event.AgentFinished{Meta: m, Reason: bad, Text: bad, Result: bad, Transcript: bad},
		event.CompactionStarted{Meta: m, Focus: bad}, event.Compacted{Meta: m, Focus: bad, Summary: bad, Error: bad},
		event.ReviewFinished{Meta: m, Summary: bad},
	} {
		clean := Event(ev)
		if reflect.TypeOf(clean) != reflect.TypeOf(ev) {
			t.Fatalf("%T came back as %T", ev, clean)
		}
		if s := strings.Join(texts(reflect.ValueOf(clean)), "|"); strings.ContainsAny(s, "\x1b\x07") {
			t.Errorf("%T still carries control characters: %q", ev, s)
		}
	}
	if tools[0] != bad {
		t.Error("the event's own tool list was written to")
	}
}

// texts collects the strings of a struct, its embedded and slice fields
// included.
func texts(v reflect.Value) []string {
	switch v.Kind() {
	case reflect.String:
		return []string{v.String()}
	case reflect.Struct:
		var out []string
		for i := range v.NumField() {
			out = append(out, texts(v.Field(i))...)
		}
		return out
	case reflect.Slice:
		var out []string
		for i := range v.Len() {
			out = append(out, texts(v.Index(i))...)
		}
		return out
	}
	return nil
}
