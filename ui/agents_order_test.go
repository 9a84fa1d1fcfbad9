package ui

import (
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

func TestPanesFollowTheOrderRequested(t *testing.T) {
	a := newAgents(nil)
	for n, id := range map[int]event.AgentID{3: "review-3", 1: "explore-1", 2: "plan-2"} {
		a.paneFor(event.Meta{Agent: id, Parent: event.MainAgent, Number: n, AgentType: "X", Description: string(id)})
	}
	var got []event.AgentID
	for _, p := range a.all {
		got = append(got, p.ID())
	}
	if len(got) != 3 || got[0] != "explore-1" || got[1] != "plan-2" || got[2] != "review-3" {
		t.Fatalf("panes in order %v", got)
	}
	if p, err := a.find("#2"); err != nil || p.ID() != "plan-2" {
		t.Fatalf("#2 found %v, %v", p, err)
	}
}
