package demo_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/permission"
)

// Asked for a change, the demo adds a general-purpose child whose
// write_file call brings up a write card with its diff: a newcomer sees
// the delegation card and the write card too.
func TestDemoChangeShowsTheWritePath(t *testing.T) {
	var ws string
	s := newSession(t, startDemo(t), func(c *engine.Config) { c.Mode, ws = permission.Ask, c.Workspace })
	if err := s.Submit("add a --verbose flag"); err != nil {
		t.Fatal(err)
	}
	var delegated []string
	var writeCard *event.ApprovalRequest
	var end event.TurnEnded
	deadline := time.After(testTimeout)
	for end.Agent == "" {
		select {
		case ev := <-s.Events():
			switch e := ev.(type) {
			case event.ApprovalRequested:
				if d := e.Request.Delegation; d != nil {
					delegated = append(delegated, d.AgentType)
				} else if e.Request.Tool == "write_file" {
					writeCard = e.Request
				}
				e.Request.Answer(event.Answer{Decision: event.Allow})
			case event.TurnEnded:
				if e.Agent == event.MainAgent {
					end = e
				}
			}
		case <-deadline:
			t.Fatal("turn did not end")
		}
	}
	if len(delegated) != 4 || !strings.HasPrefix(delegated[3], "General") {
		t.Fatalf("delegation cards for %q, want three readers and a general-purpose child", delegated)
	}
	if writeCard == nil || !strings.Contains(writeCard.Preview, "BATON_DEMO_CHANGE.md") || !strings.Contains(writeCard.Preview, "+# A change proposed") {
		t.Fatalf("no write card with the diff: %+v", writeCard)
	}
	if data, err := os.ReadFile(filepath.Join(ws, "BATON_DEMO_CHANGE.md")); err != nil || !strings.Contains(string(data), "offline demo") {
		t.Fatalf("the approved write did not happen: %v", err)
	}
	mustContain(t, "the summary", end.Text, "[general-purpose] propose the change", "Wrote `BATON_DEMO_CHANGE.md`")
}
