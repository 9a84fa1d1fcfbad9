package ui

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
)

func TestResumedConversationReappears(t *testing.T) {
	s := newFakeSession()
	usage := event.Usage{TotalTokens: 5000, Cost: 0.01, CostKnown: true, Requests: 2}
	s.history = []event.Event{
		event.TurnStarted{Meta: mainMeta, Prompt: "what is here"},
		event.MessageDone{Meta: mainMeta, Text: "I'll split this."},
		explore.taskCall(), explore.started(),
		event.AgentFinished{Meta: explore.meta(6e9), Status: event.StatusCompleted,
			Stats: event.Stats{ToolCalls: 8, Duration: 5100e6, Usage: event.Usage{TotalTokens: 3200, Requests: 3}}},
		event.ToolFinished{Meta: mainMeta, CallID: "call-explore-1", Name: child.TaskToolName, Summary: "completed"},
		event.MessageDone{Meta: mainMeta, Text: "It is a Go project."},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted, Usage: usage},
		event.TurnStarted{Meta: mainMeta, Prompt: "and the tests?"},
		review.taskCall(), review.started(),
		// baton died here; the engine ends the child that was running.
		event.AgentFinished{Meta: review.meta(0), Status: event.StatusInterrupted, Reason: "baton stopped while this sub-agent ran"},
	}
	d := newDriverFor(t, s, Options{Theme: "dark"}, 120, 30)
	screen := d.screen()
	for _, want := range []string{"› what is here", "I'll split this.", "✓ #1 [Explore] map the project layout - done (8 tools, 5.1s, 3.2k tok)",
		"It is a Go project.", "› and the tests?", "… #2 [Review] look for TODOs - interrupted", "5.0k tok"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the resumed screen lacks %q:\n%s", want, screen)
		}
	}
	if strings.Index(screen, "[Explore] map the project layout - done") > strings.Index(screen, "It is a Go project.") {
		t.Errorf("the folded child is not where it was delegated:\n%s", screen)
	}
	// The clock may run only for the "resumed" note to expire.
	if d.m.busy || d.m.clock.ticking && !d.m.status.Expiring() || d.m.agents.Running() || strings.Contains(screen, "sub-agents (") {
		t.Errorf("after replay something still runs: busy %v, ticking %v", d.m.busy, d.m.clock.ticking)
	}
	d.command("/subagents list")
	if !strings.Contains(d.screen(), "review-2   2  Review   look for TODOs          interrupted") {
		t.Errorf("/subagents does not know the resumed children:\n%s", d.screen())
	}
}

func TestResumeAfterClearShowsOnlyTheNewConversation(t *testing.T) {
	s := newFakeSession()
	s.history = []event.Event{
		event.TurnStarted{Meta: mainMeta, Prompt: "old topic"},
		event.MessageDone{Meta: mainMeta, Text: "old answer"},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted},
		event.ConversationCleared{Meta: mainMeta},
		event.TurnStarted{Meta: mainMeta, Prompt: "new topic"},
		event.MessageDone{Meta: mainMeta, Text: "new answer"},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted},
	}
	d := newDriverFor(t, s, Options{Theme: "dark"}, 100, 30)
	screen := d.screen()
	if strings.Contains(screen, "old answer") || !strings.Contains(screen, "new answer") {
		t.Fatalf("resumed screen after /clear:\n%s", screen)
	}
}
