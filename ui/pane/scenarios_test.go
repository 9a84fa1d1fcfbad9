package pane

import (
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
)

// t0 is when every scenario's child was requested.
var t0 = time.Date(2025, 3, 14, 9, 26, 0, 0, time.UTC)

// at is a Meta of the scenario child, stamped d after t0.
func at(d time.Duration) event.Meta {
	return event.Meta{Agent: "explore-1", Parent: event.MainAgent, AgentType: "Explore",
		Description: "find auth code", Time: t0.Add(d)}
}

// newPane makes the scenario child's pane with the dark theme.
func newPane() *Pane {
	styles := themes.New(themes.Dark())
	meta := at(0)
	meta.Time = time.Time{}
	return New(meta, 1, &styles)
}

// delegation is the approval request that precedes the child.
func delegation() *event.ApprovalRequest {
	return &event.ApprovalRequest{ID: "a1", Kind: event.ApproveDelegation, Delegation: &event.DelegationPreview{
		AgentType: "Explore", Description: "find auth code", Prompt: "Find where sessions are authenticated.",
		Tools: []string{"read_file", "grep", "glob"}, Model: "gpt-4.1-mini", MaxSteps: 15, Timeout: 2 * time.Minute,
		EstimatedTokens: 1200, EstimatedCost: 0.0005, CostKnown: true,
	}}
}

// requested brings a pane to the approval card.
func requested() []event.Event {
	return []event.Event{event.ApprovalRequested{Meta: at(0), Request: delegation()}}
}

// started approves the child and starts it at t0+1s.
func started() []event.Event {
	return append(requested(),
		event.ApprovalResolved{Meta: at(time.Second), RequestID: "a1", Answer: event.Answer{Decision: event.Allow}, By: "person"},
		event.AgentStarted{Meta: at(time.Second), Prompt: "Find where sessions are authenticated.", Model: "gpt-4.1-mini",
			Tools: []string{"read_file", "grep", "glob"}, MaxSteps: 15, Timeout: 2 * time.Minute,
			Transcript: "/tmp/sessions/s1/explore-1.jsonl"},
	)
}

// tooling runs the child through five tool calls; the last is still
// running at step 6.
func tooling() []event.Event {
	evs := started()
	calls := []struct{ name, title, summary string }{
		{"glob", "glob **/*.go", "42 files"},
		{"grep", "grep -n Authenticate", "7 matches"},
		{"read_file", "read_file internal/auth/session.go", "180 lines"},
		{"read_file", "read_file internal/auth/middleware.go", "95 lines"},
		{"grep", "grep TODO internal/auth", "3 matches"},
	}
	for i, c := range calls {
		d := time.Second + time.Duration(i+1)*400*time.Millisecond
		id := string(rune('a' + i))
		evs = append(evs,
			event.StepStarted{Meta: at(d), Step: i + 1, Max: 15},
			event.ToolStarted{Meta: at(d), CallID: id, Name: c.name, Title: c.title},
			event.ToolFinished{Meta: at(d), CallID: id, Name: c.name, Summary: c.summary, Output: "…"},
		)
	}
	return append(evs,
		event.StepStarted{Meta: at(3 * time.Second), Step: 6, Max: 15},
		event.UsageReported{Meta: at(3 * time.Second), Total: event.Usage{PromptTokens: 1100, CompletionTokens: 134,
			TotalTokens: 1234, Cost: 0.0021, CostKnown: true, Requests: 6}},
		event.ToolStarted{Meta: at(3 * time.Second), CallID: "f", Name: "grep", Args: `{"pattern":"func Login"}`, Title: `grep "func Login"`},
	)
}

// streaming has the child write its findings.
func streaming() []event.Event {
	evs := tooling()
	return append(evs[:len(evs)-1],
		event.ReasoningDelta{Meta: at(3 * time.Second), Text: "The middleware calls Authenticate on every request."},
		event.TextDelta{Meta: at(3 * time.Second), Text: "Sessions are authenticated in `internal/auth/session.go`:\n\n"},
		event.TextDelta{Meta: at(3 * time.Second), Text: "- `Authenticate` checks the cookie against the store and refreshes its expiry;\n"},
		event.TextDelta{Meta: at(3 * time.Second), Text: "- `Middleware` wraps every handler under /api and rejects a missing or stale session with 401"},
	)
}

// waiting has the child ask for a command.
func waiting() []event.Event {
	return append(tooling(),
		event.ToolStarted{Meta: at(3 * time.Second), CallID: "g", Name: "run_command", Title: "run_command go test ./internal/auth/..."},
		event.ApprovalRequested{Meta: at(3 * time.Second), Request: &event.ApprovalRequest{ID: "a2", Kind: event.ApproveTool,
			Tool: "run_command", Preview: "go test ./internal/auth/..."}},
	)
}

// finished ends a child that ran the tool scenario.
func finished(status event.Status, reason string) []event.Event {
	return append(tooling(),
		event.ToolFinished{Meta: at(5 * time.Second), CallID: "f", Name: "grep", Summary: "1 match"},
		event.MessageDone{Meta: at(6 * time.Second), Text: "Sessions are authenticated in internal/auth/session.go."},
		event.AgentFinished{Meta: at(6 * time.Second), Status: status, Reason: reason,
			Stats: event.Stats{ToolCalls: 8, Steps: 7, Duration: 5100 * time.Millisecond,
				Usage: event.Usage{TotalTokens: 3214, Cost: 0.0041, CostKnown: true, Requests: 7}},
			Text: "Sessions are authenticated in internal/auth/session.go.", Transcript: "/tmp/sessions/s1/explore-1.jsonl"},
	)
}

// scenarios bring a pane into each state it can be drawn in.
var scenarios = []struct {
	name   string
	events func() []event.Event
	state  State
}{
	{"awaiting_approval", requested, AwaitingApproval},
	{"queued", func() []event.Event {
		return append(requested(),
			event.ApprovalResolved{Meta: at(time.Second), RequestID: "a1", Answer: event.Answer{Decision: event.Allow}, By: "person"},
			event.AgentQueued{Meta: at(time.Second), Position: 2})
	}, Queued},
	{"running_tools", tooling, Running},
	{"running_text", streaming, Running},
	{"waiting_for_approval", waiting, WaitingForApproval},
	{"done", func() []event.Event { return finished(event.StatusCompleted, "") }, Done},
	{"max_steps", func() []event.Event {
		return finished(event.StatusMaxSteps, "reached the limit of 15 steps; summed up what it found")
	}, MaxSteps},
	{"failed", func() []event.Event {
		evs := tooling()
		return append(evs,
			event.ErrorOccurred{Meta: at(2 * time.Second), Message: "rate limited (429)"},
			event.AgentFinished{Meta: at(2 * time.Second), Status: event.StatusFailed,
				Stats: event.Stats{ToolCalls: 2, Steps: 2, Duration: 1100 * time.Millisecond, Usage: event.Usage{TotalTokens: 800, Requests: 2}}})
	}, Failed},
	{"timed_out", func() []event.Event { return finished(event.StatusTimedOut, "timed out after 2m0s") }, TimedOut},
	{"stopped", func() []event.Event { return finished(event.StatusCancelled, "stopped by the person") }, Cancelled},
	{"denied", func() []event.Event {
		return append(requested(),
			event.ApprovalResolved{Meta: at(time.Second), RequestID: "a1", Answer: event.Answer{Decision: event.Deny, Reason: "not now"}, By: "person"},
			event.AgentFinished{Meta: at(time.Second), Status: event.StatusDenied, Reason: "not now"})
	}, Denied},
	{"interrupted", func() []event.Event {
		return append(started(), event.AgentFinished{Meta: at(time.Hour), Status: event.StatusInterrupted,
			Reason: "baton stopped while this sub-agent ran"})
	}, Interrupted},
}

// play applies events to p in order, ticking the clock to each event's
// time as the root would.
func play(p *Pane, events []event.Event) {
	for _, ev := range events {
		p.SetNow(ev.EventMeta().Time)
		p.Apply(ev)
	}
}
