package engine

import (
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// TestAlwaysSettlesTheWaitingDelegationsOfItsType: with three
// delegations waiting (Explore, Plan, Explore), "always" on the first
// Explore card answers the other Explore card too, and says so with
// ApprovalResolved (by "remembered"); the Plan card still waits for the
// person.
func TestAlwaysSettlesTheWaitingDelegationsOfItsType(t *testing.T) {
	respond := func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			w.Text("done")
		case len(toolMessages(r)) == 0:
			w.ToolCalls(taskCall("a", "explore", "find auth", "Find auth."), taskCall("b", "plan", "plan it", "Plan it."),
				taskCall("c", "explore", "find tests", "Find tests."))
		default:
			w.Text("summary")
		}
	}
	s, _ := newTestSession(t, respond, func(c *Config) { c.Mode = permission.Ask })
	var cards []*event.ApprovalRequest
	resolved := map[string]string{}
	watchTurn(t, s, "go", func(ev event.Event) {
		switch ev := ev.(type) {
		case event.ApprovalRequested:
			cards = append(cards, ev.Request)
			if len(cards) < 3 {
				return // every card is published before the person answers
			}
			for _, c := range cards {
				switch c.Delegation.Description {
				case "find auth":
					c.Answer(event.Answer{Decision: event.AllowAlways})
				case "plan it":
					c.Answer(event.Answer{Decision: event.Allow})
				}
			}
		case event.ApprovalResolved:
			resolved[ev.RequestID] = ev.By
		}
	})
	if len(cards) != 3 {
		t.Fatalf("%d cards, want 3", len(cards))
	}
	for _, c := range cards {
		want := "person"
		if c.Delegation.Description == "find tests" {
			want = "remembered"
		}
		if got := resolved[c.ID]; got != want {
			t.Errorf("%s was resolved by %q, want %q", c.Delegation.Description, got, want)
		}
	}
}

// TestTrustingTheFolderStartsItsOtherWaitingServers: two servers of an
// untrusted folder wait; trusting the folder on one card starts the
// other too, and says so (by "remembered").
func TestTrustingTheFolderStartsItsOtherWaitingServers(t *testing.T) {
	s, _ := newTestSession(t, callThenAnswer("x", "{}"), nil)
	trust := func() (string, error) { return "trusted: /work/app", nil }
	started := make(chan bool, 2)
	var cards []*event.ApprovalRequest
	for _, name := range []string{"gh", "db"} {
		go func() {
			started <- s.ApproveMCPServer(t.Context(), MCPServerAsk{Name: name, Source: ".mcp.json", Command: name + "-mcp", TrustFolder: trust})
		}()
		cards = append(cards, (<-s.Events()).(event.ApprovalRequested).Request)
	}
	cards[0].Answer(event.Answer{Decision: event.AllowAlways})
	by := map[string]string{}
	for len(by) < 2 {
		if r, ok := (<-s.Events()).(event.ApprovalResolved); ok {
			by[r.RequestID] = r.By
		}
	}
	for range 2 {
		if !<-started {
			t.Fatal("a server of the trusted folder did not start")
		}
	}
	if by[cards[0].ID] != "person" || by[cards[1].ID] != "remembered" {
		t.Errorf("resolved by %v", by)
	}
}
