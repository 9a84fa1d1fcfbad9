package event

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestEventJSONRoundTrip(t *testing.T) {
	meta := Meta{Agent: "explore-1", Parent: MainAgent, AgentType: "Explore", Description: "find auth", Time: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	events := []Event{
		TurnStarted{Meta: Meta{Agent: MainAgent, Time: meta.Time}, Prompt: "hi"},
		ToolFinished{Meta: meta, CallID: "c1", Name: "grep", Summary: "3 matches", Output: "a.go:1: x"},
		AgentFinished{Meta: meta, Status: StatusTimedOut, Reason: "timed out after 2m0s",
			Stats: Stats{ToolCalls: 8, Duration: 5100 * time.Millisecond, Usage: Usage{TotalTokens: 3214, Cost: 0.0041, CostKnown: true}}},
		TurnEnded{Meta: Meta{Agent: MainAgent, Time: meta.Time}, Status: StatusCompleted, Text: "done"},
	}
	for _, ev := range events {
		data, err := MarshalEvent(ev)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(data), `{"type":"`+ev.Kind()+`",`) {
			t.Fatalf("no type first: %s", data)
		}
		back, err := UnmarshalEvent(data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, ev) {
			t.Fatalf("round trip changed %T:\n got %+v\nwant %+v", ev, back, ev)
		}
	}
	if _, err := UnmarshalEvent([]byte(`{"type":"approval_requested"}`)); err == nil {
		t.Fatal("an approval request must not be replayable")
	}
	if _, err := UnmarshalEvent([]byte(`{"type":`)); err == nil {
		t.Fatal("broken JSON decoded")
	}
}

func TestStatsLine(t *testing.T) {
	s := Stats{ToolCalls: 8, Duration: 5100 * time.Millisecond, Usage: Usage{TotalTokens: 3214, Cost: 0.0041, CostKnown: true}}
	if got, want := s.Line(), "8 tools · 5.1s · 3,214 tokens · $0.0041"; got != want {
		t.Fatalf("Line() = %q, want %q", got, want)
	}
	s.Usage.CostKnown = false
	if strings.Contains(s.Line(), "$") {
		t.Fatal("an unknown cost must not be shown")
	}
}

func TestStatsCarryDurationInMilliseconds(t *testing.T) {
	data, err := MarshalEvent(AgentFinished{Meta: Meta{Agent: "explore-1"}, Status: StatusCompleted, Stats: Stats{Duration: 5100 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"duration_ms":5100`) {
		t.Fatalf("no duration_ms in %s", data)
	}
}
