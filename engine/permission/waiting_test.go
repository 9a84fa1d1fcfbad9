package permission

import (
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/rules"
)

// TestAlwaysSettlesOnlyWhatItsRulesCover: the waiting questions an
// agent's new rules cover are answered, not another agent's, nor one a
// rule or hook made ask, nor one the rules do not cover.
func TestAlwaysSettlesOnlyWhatItsRulesCover(t *testing.T) {
	var p Policy
	a, b := event.AgentID("main"), event.AgentID("explore-1")
	ask := func(agent event.AgentID, cmd string, forced bool) *event.ApprovalRequest {
		req := event.NewApprovalRequest(cmd, event.ApproveTool)
		p.waiting.add(req, question{agent: agent, call: rules.CommandCall(cmd), forced: forced})
		return req
	}
	covered, other, forced, uncovered := ask(a, "go test ./ui", false), ask(b, "go test ./ui", false), ask(a, "go test ./x", true), ask(a, "go vet", false)
	added, err := rules.ParseAll([]string{"run_command(go test:*)"})
	if err != nil {
		t.Fatal(err)
	}
	p.waiting.settle(event.ApproveTool, func(w *question) bool { return w.agent == a && !w.forced && rules.Covered(added, w.call) })
	if got := covered.Wait(t.Context()); got.Decision != event.Allow || !p.waiting.done(covered) {
		t.Errorf("the covered question: %+v", got)
	}
	for _, req := range []*event.ApprovalRequest{other, forced, uncovered} {
		req.Answer(event.Answer{Decision: event.Deny})
		if got := req.Wait(t.Context()); got.Decision != event.Deny || p.waiting.done(req) {
			t.Errorf("%s was settled: %+v", req.ID, got)
		}
	}
}
