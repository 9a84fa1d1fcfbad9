package child_test

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// quitScript starts a background explore child on "start it"; the child
// answers "FOUND-IT" once release opens (nil: never).
func quitScript(release sessiontest.Gate) llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			if release == nil {
				<-w.Context().Done()
			} else if release.Wait(w) {
				w.Text("FOUND-IT")
			}
		case sessiontest.LastIsUser(r, "start it"):
			w.ToolCalls(sessiontest.BackgroundCall("t1", "find auth code", "Find the auth code."))
		default:
			w.Text("answer to: " + r.LastUser())
		}
	}
}

// firstRequestAfterResume is the main agent's request for "hello".
func firstRequestAfterResume(t *testing.T, srv *llmtest.Server) []string {
	t.Helper()
	for _, r := range srv.Requests() {
		if !sessiontest.IsChild(r) && sessiontest.LastIsUser(r, "hello") {
			var users []string
			for _, m := range r.Body.Messages {
				if m.Role == "user" {
					users = append(users, m.Content)
				}
			}
			return users
		}
	}
	t.Fatal("no request for hello")
	return nil
}

func TestUndeliveredResultIsDeliveredFirstOnResume(t *testing.T) {
	_, workspace, dir := sessiontest.NewRecorded(t, nil)
	release := make(sessiontest.Gate)
	noWake := func(c *engine.Config) { recordTo(workspace, dir)(c); c.NoWakeOnResult = true }
	first, _ := newTestSession(t, quitScript(release), noWake)
	sessiontest.RunTurn(t, first, "start it", nil)
	close(release)
	sessiontest.ReadUntil(t, first, func(ev event.Event) bool { _, ok := ev.(event.ResultQueued); return ok })
	first.Close()

	second, srv := newTestSession(t, quitScript(nil), recordTo(workspace, dir))
	if notes := strings.Join(second.ResumeNotes(), "; "); !strings.Contains(notes, "1 result of background sub-agents") {
		t.Fatalf("resume notes %q", notes)
	}
	log := sessiontest.RunTurn(t, second, "hello", nil)
	users := firstRequestAfterResume(t, srv)
	if n := len(users); n < 2 || !strings.HasPrefix(users[n-2], "[#1 done] explore-1") || !strings.Contains(users[n-2], "FOUND-IT") {
		t.Fatalf("user messages after resume: %q", users)
	}
	if d := sessiontest.Of[event.ResultDelivered](log); len(d) != 1 || d[0].Child != "explore-1" {
		t.Fatalf("deliveries %+v", d)
	}
	second.Close()

	third, srv3 := newTestSession(t, quitScript(nil), recordTo(workspace, dir))
	if len(third.ResumeNotes()) != 0 {
		t.Fatalf("a delivered result is queued again: %q", third.ResumeNotes())
	}
	sessiontest.RunTurn(t, third, "hello", nil)
	if users := firstRequestAfterResume(t, srv3); strings.Count(strings.Join(users, "\n"), "[#1 done]") != 1 {
		t.Fatalf("the result was delivered twice: %q", users)
	}
}

func TestBackgroundChildRunningAtQuitIsDeliveredAsInterrupted(t *testing.T) {
	_, workspace, dir := sessiontest.NewRecorded(t, nil)
	first, _ := newTestSession(t, quitScript(nil), recordTo(workspace, dir))
	sessiontest.RunTurn(t, first, "start it", nil)
	first.Close()

	second, srv := newTestSession(t, quitScript(nil), recordTo(workspace, dir))
	sessiontest.RunTurn(t, second, "hello", nil)
	users := firstRequestAfterResume(t, srv)
	if n := len(users); n < 2 || !strings.HasPrefix(users[n-2], "[#1 interrupted] explore-1") {
		t.Fatalf("user messages after resume: %q", users)
	}
	if bg := second.BackgroundChildren(); len(bg) != 1 || bg[0].Status != event.StatusInterrupted || !bg[0].Delivered {
		t.Fatalf("background children %+v", bg)
	}
}
