package child_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// TestACPChildsCardNamesItsProgram: the delegation card of an ACP agent
// names the program it would run and the variables its file sets (not
// their values); an agent that dies at once ends its child failed and
// the parent's turn goes on.
func TestACPChildsCardNamesItsProgram(t *testing.T) {
	falseBin, err := exec.LookPath("false")
	if err != nil {
		t.Skip("no false(1) here")
	}
	gem := agenttypes.Type{Name: "gem", DisplayName: "Gem", Description: "an ACP agent", Runner: agenttypes.RunnerACP,
		ACP: &agenttypes.ACPAgent{Command: falseBin, Args: []string{"--acp"}, Env: map[string]string{"GEM_KEY": "secret-value"}}}
	results := make(chan string, 1)
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if sessiontest.IsChild(r) {
			t.Error("an ACP child made a request to baton's endpoint")
		}
		if msgs := sessiontest.ToolMessages(r); len(msgs) > 0 {
			results <- msgs[0]
			w.Text("summary")
			return
		}
		w.ToolCalls(llmtest.Call{ID: "t1", Name: "task", Args: `{"description":"ask gem","prompt":"Say hi.","subagent_type":"gem"}`})
	}, func(c *engine.Config) {
		withTypes(gem)(c)
		c.Mode = permission.Ask
	})
	cards := cardsOf(t, s)
	if len(cards) != 1 || cards[0].Delegation == nil || cards[0].Delegation.ACPAgent != falseBin+" --acp · env GEM_KEY" {
		t.Fatalf("cards: %+v", cards)
	}
	if got := <-results; !strings.Contains(got, "failed") || !strings.Contains(got, "the ACP agent") {
		t.Errorf("the parent was told %q", got)
	}
}
