package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// Every control the session offers over its children (the keys of a
// pane, the /subagents commands, the review and the fan-in) reaches the
// children's manager: given a child the session does not know, each
// refuses with the reason the manager gives for that control, names the
// child, and changes nothing.
func TestSessionControlsRefuseAnUnknownChild(t *testing.T) {
	s, _ := newTestSession(t, delegatingScript(false), nil)
	runTurn(t, s, "find auth", nil)
	ctx := context.Background()
	_, windDown := s.WindDownAgent("nobody-1")
	_, review := s.Review("explore-1")
	_, apply := s.ApplyChange(ctx, "explore-1", -1, -1, "")
	_, preview := s.PreviewFanIn(ctx, nil)
	_, verify := s.VerifyFanIn(ctx, "fanin-1")
	_, applyFanIn := s.ApplyFanIn(ctx, "fanin-1", false)
	for _, c := range []struct {
		control string
		err     error
		want    string
	}{
		{"resume", s.ResumeAgent("#9"), `resume: no sub-agent "#9" in this session; task_status lists them`},
		{"retry", s.RetryAgent("nobody-1"), `retry: no sub-agent "nobody-1"`},
		{"continue", s.ContinueAgent("nobody-1", "more"), `continue nobody-1: resume: no sub-agent "nobody-1"`},
		{"stop", s.StopAgent("nobody-1"), `no running sub-agent "nobody-1"`},
		{"send", s.SendToAgent("nobody-1", "hi"), `no running sub-agent "nobody-1"`},
		{"wind down", windDown, `no running sub-agent "nobody-1"`},
		{"background", s.Background("nobody-1"), `no sub-agent "nobody-1"`},
		{"review", review, `sub-agent "explore-1" has no change waiting for review`},
		{"apply", apply, `sub-agent "explore-1" has no change waiting for review`},
		{"skip", s.SkipChange("explore-1", -1, -1), `sub-agent "explore-1" has no change waiting for review`},
		{"fan-in preview", preview, "no change waits for review"},
		{"fan-in verify", verify, `merge preview "fanin-1" is gone; preview the merge again`},
		{"fan-in apply", applyFanIn, `merge preview "fanin-1" is gone; preview the merge again`},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.control, c.err, c.want)
		}
	}
	if n := s.Detach(); n != 0 {
		t.Errorf("Detach let go of %d children with none running", n)
	}
	if kept, merges, bg := s.Kept(), s.Merges(), s.BackgroundChildren(); len(kept)+len(merges)+len(bg) != 0 {
		t.Errorf("kept %v, merges %v, background %v after one child that waited for its parent", kept, merges, bg)
	}
	if got := eventsOf[event.AgentFinished](runTurn(t, s, "find auth", nil)); len(got) != 1 || got[0].Status != event.StatusCompleted {
		t.Fatalf("a child after the refusals ended %+v", got)
	}
}
