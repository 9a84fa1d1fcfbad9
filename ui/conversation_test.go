package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
)

func TestChildEventsStayOutOfTheConversation(t *testing.T) {
	d := newDriver(t, 80, 24)
	child := event.Meta{Agent: "c1", Parent: event.MainAgent, AgentType: "Explore", Description: "find auth"}
	d.emit(
		event.TurnStarted{Meta: mainMeta, Prompt: "go"},
		event.AgentStarted{Meta: child, Prompt: "look"},
		event.TextDelta{Meta: child, Text: "child text"},
		event.ToolStarted{Meta: child, CallID: "x", Name: "grep", Title: "grep auth"},
		event.TurnEnded{Meta: child, Status: event.StatusCompleted},
		event.TextDelta{Meta: mainMeta, Text: "main text"},
	)
	s := ansi.Strip(strings.Join(d.m.conv.View(80, 20), "\n"))
	if strings.Contains(s, "child text") || strings.Contains(s, "grep auth") || !strings.Contains(s, "main text") {
		t.Errorf("child events leaked into the main conversation:\n%s", s)
	}
	if !strings.Contains(d.screen(), "[Explore] find auth") {
		t.Errorf("the child has no pane:\n%s", d.screen())
	}
	if !d.m.busy {
		t.Error("a child's TurnEnded ended the main turn")
	}
}

func TestUntrustedTextCannotDriveTheTerminal(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.emit(
		event.TurnStarted{Meta: mainMeta, Prompt: "hi\x1b]0;pwned\x07"},
		event.TextDelta{Meta: mainMeta, Text: "red\x1b[31m text\x1b[2J\r"},
		event.ToolStarted{Meta: mainMeta, CallID: "c", Name: "read_file", Title: "read_file \x1b[1Ax"},
		event.ToolFinished{Meta: mainMeta, CallID: "c", Name: "read_file", Summary: "1 line", Output: "\ttabbed\x1b[H"},
	)
	for _, line := range strings.Split(d.m.View(), "\n") {
		if strings.Contains(line, "\x1b[2J") || strings.Contains(line, "\x1b]0") || strings.Contains(line, "\x1b[H") || strings.Contains(line, "\x1b[1A") || strings.Contains(line, "\r") {
			t.Fatalf("a control sequence from the model reached the screen: %q", line)
		}
	}
	if !strings.Contains(d.screen(), "tabbed") {
		t.Errorf("the text around the sequences was lost:\n%s", d.screen())
	}
}

func TestExpandShowsWholeToolOutput(t *testing.T) {
	d := newDriver(t, 80, 40)
	d.emit(
		event.TurnStarted{Meta: mainMeta, Prompt: "go"},
		event.ToolStarted{Meta: mainMeta, CallID: "c", Name: "run_command", Title: "run_command ls"},
		event.ToolFinished{Meta: mainMeta, CallID: "c", Name: "run_command", Summary: "6 lines", Output: "a\nb\nc\nd\ne\nsixth\n"},
		event.ReasoningDelta{Meta: mainMeta, Text: "I should list the folder carefully"},
		event.MessageDone{Meta: mainMeta},
	)
	if s := d.screen(); strings.Contains(s, "sixth") || !strings.Contains(s, "+3 lines") || strings.Contains(s, "carefully") {
		t.Fatalf("collapsed output shows too much or too little:\n%s", s)
	}
	d.keys("ctrl+o")
	if s := d.screen(); !strings.Contains(s, "sixth") || !strings.Contains(s, "carefully") {
		t.Errorf("ctrl+o does not expand output and reasoning:\n%s", s)
	}
}

func TestUsageInHeader(t *testing.T) {
	d := newDriver(t, 100, 24)
	d.emit(
		event.TurnStarted{Meta: mainMeta, Prompt: "go"},
		event.StepStarted{Meta: mainMeta, Step: 1, Max: 50},
		usage(64000, 1000, 0.5),
		event.MessageDone{Meta: mainMeta},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted, Usage: usage(64000, 1000, 0.5).Total},
		event.TurnStarted{Meta: mainMeta, Prompt: "again"},
		event.StepStarted{Meta: mainMeta, Step: 1, Max: 50},
		usage(32000, 0, 0.25),
	)
	header := strings.Split(d.screen(), "\n")[0]
	if !strings.Contains(header, "97.0k tok") || !strings.Contains(header, "ctx 25%") || !strings.Contains(header, "$0.750") {
		t.Errorf("header = %q, want both turns' tokens and cost and the last request's context fill", header)
	}
}

// usage reports one request that is also the whole turn so far.
func usage(prompt, completion int, cost float64) event.UsageReported {
	u := event.Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion, Cost: cost, CostKnown: true, Requests: 1}
	return event.UsageReported{Meta: mainMeta, Request: u, Total: u}
}

func TestContextFillFollowsModelSwitch(t *testing.T) {
	windows := map[string]int64{"gpt-4.1": 128000, "gpt-4.1-mini": 64000}
	opts := Options{Workspace: "/work/app", Theme: "dark", ContextWindowOf: func(model string) int64 { return windows[model] }}
	d := newDriverFor(t, newFakeSession(), opts, 100, 24)
	d.emit(
		event.TurnStarted{Meta: mainMeta, Prompt: "go"},
		event.StepStarted{Meta: mainMeta, Step: 1, Max: 50},
		usage(32000, 0, 0.25),
		event.MessageDone{Meta: mainMeta},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted, Usage: usage(32000, 0, 0.25).Total},
	)
	if header := strings.Split(d.screen(), "\n")[0]; !strings.Contains(header, "ctx 25%") {
		t.Fatalf("header = %q, want ctx 25%% of the start model", header)
	}
	d.typeText("/model gpt-4.1-mini")
	d.keys("enter")
	if header := strings.Split(d.screen(), "\n")[0]; !strings.Contains(header, "ctx 50%") {
		t.Errorf("header = %q, want ctx 50%% of the new model", header)
	}
	d.typeText("/model unknown-model")
	d.keys("enter")
	if header := strings.Split(d.screen(), "\n")[0]; strings.Contains(header, "ctx") {
		t.Errorf("header = %q shows a fill for a model of unknown size", header)
	}
}

func TestDeniedToolShowsDeniedNotTheModelText(t *testing.T) {
	for reason, want := range map[string]string{"": "(denied)", "wrong file": "(denied: wrong file)"} {
		d := newDriver(t, 80, 24)
		out := "[person: denied this edit_file call, giving no reason] Do not retry it unchanged."
		if reason != "" {
			out = "[person: denied this edit_file call: " + reason + "]"
		}
		d.emit(
			event.TurnStarted{Meta: mainMeta, Prompt: "go"},
			event.ToolStarted{Meta: mainMeta, CallID: "c", Name: "edit_file", Title: "edit_file a.go"},
			event.ToolFinished{Meta: mainMeta, CallID: "c", Name: "edit_file", Summary: out, Output: out, IsError: true, Denied: true, DenyReason: reason},
		)
		screen := d.screen()
		if !strings.Contains(screen, "⊘ edit_file a.go "+want) || strings.Contains(screen, "retry") || strings.Contains(screen, "[person") {
			t.Errorf("denied call drawn as:\n%s", screen)
		}
	}
}
