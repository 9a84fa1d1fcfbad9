package child_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// resumeCall is a task call that continues a finished child.
func resumeCall(id, ref, prompt string) llmtest.Call {
	return llmtest.Call{ID: id, Name: child.TaskToolName, Args: `{"resume":"` + ref + `","prompt":"` + prompt + `"}`}
}

// followUpScript: the first turn delegates an explore child, which
// answers "auth is in auth.go"; "ask more" resumes it. A child asked
// "Now check expiry." answers from what it was told before.
func followUpScript(r *llmtest.Request, w *llmtest.Writer) {
	switch {
	case sessiontest.IsChild(r) && r.LastUser() == "Now check expiry.":
		w.Text("EXPIRY is in session.go")
	case sessiontest.IsChild(r):
		w.Text("auth is in auth.go")
	case sessiontest.LastIsUser(r, "find auth"):
		w.ToolCalls(sessiontest.TaskCall("t1", "explore", "find auth code", "Find the auth code."))
	case sessiontest.LastIsUser(r, "ask more"):
		w.ToolCalls(resumeCall("t2", "explore-1", "Now check expiry."))
	default:
		w.Text("answer")
	}
}

// checkContinued asserts that the follow-up's first request carries the
// earlier child's history and nothing of the parent's conversation.
func checkContinued(t *testing.T, srv *llmtest.Server) {
	t.Helper()
	var req *llmtest.Request
	for _, r := range srv.Requests() {
		if sessiontest.IsChild(r) && r.LastUser() == "Now check expiry." {
			req = r
		}
	}
	if req == nil {
		t.Fatal("the follow-up never asked the model")
	}
	var roles []string
	for _, m := range req.Body.Messages {
		roles = append(roles, m.Role+":"+m.Content)
		if strings.Contains(m.Content, "find auth") || strings.Contains(m.Content, "ask more") {
			t.Fatalf("the parent's conversation leaked into the follow-up: %q", m.Content)
		}
	}
	got := strings.Join(roles[1:], " | ")
	if want := "user:Find the auth code. | assistant:auth is in auth.go | user:Now check expiry."; got != want {
		t.Fatalf("follow-up history:\n got %s\nwant %s", got, want)
	}
	if names := strings.Join(req.ToolNames(), ","); strings.Contains(names, child.TaskToolName) || !strings.Contains(names, "read_file") {
		t.Fatalf("follow-up tools %s", names)
	}
}

func TestResumeContinuesAFinishedChildWithItsOwnHistory(t *testing.T) {
	s, srv := newTestSession(t, followUpScript, nil)
	sessiontest.RunTurn(t, s, "find auth", nil)
	log := sessiontest.RunTurn(t, s, "ask more", nil)
	started := sessiontest.Of[event.AgentStarted](log)
	if len(started) != 1 || started[0].Continues != "explore-1" || started[0].Agent != "explore-2" ||
		started[0].Description != "continue #1: find auth code" || started[0].TypeName != "explore" {
		t.Fatalf("follow-up started %+v", started)
	}
	var titles []string
	for _, ev := range sessiontest.Of[event.ToolStarted](log) {
		if ev.Name == child.TaskToolName {
			titles = append(titles, ev.Title)
		}
	}
	if len(titles) != 1 || titles[0] != "task [Explore] continue #1: find auth code" {
		t.Fatalf("the resuming task call reads %q", titles)
	}
	checkContinued(t, srv)
	last := srv.Requests()[len(srv.Requests())-1]
	if !last.HasToolResult("EXPIRY is in session.go") {
		t.Fatal("the follow-up's result did not return to the parent")
	}
}

func TestResumeAfterAQuitReadsTheChildsTranscript(t *testing.T) {
	_, workspace, dir := sessiontest.NewRecorded(t, nil)
	first, _ := newTestSession(t, followUpScript, recordTo(workspace, dir))
	sessiontest.RunTurn(t, first, "find auth", nil)
	first.Close()
	second, srv := newTestSession(t, followUpScript, recordTo(workspace, dir))
	sessiontest.RunTurn(t, second, "ask more", nil)
	checkContinued(t, srv)
}

func TestResumeRefusesWhatCannotContinue(t *testing.T) {
	release := make(sessiontest.Gate)
	// The child's late result wakes the main agent, whose request holds
	// the same results again: the gate is opened once.
	var open sync.Once
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.IsChild(r):
			if release.Wait(w) {
				w.Text("late")
			}
		case r.HasToolResult("needs a prompt"):
			open.Do(func() { close(release) })
			w.Text("ok")
		case r.HasToolResult("started #1"):
			w.ToolCalls(resumeCall("t2", "explore-1", "More."), resumeCall("t3", "#7", "More."), llmtest.Call{ID: "t4", Name: child.TaskToolName, Args: `{"resume":"1"}`})
		case sessiontest.LastIsUser(r, "go"):
			w.ToolCalls(sessiontest.BackgroundCall("t1", "slow", "Be slow."))
		default:
			w.Text("later")
		}
	}, nil)
	log := sessiontest.RunTurn(t, s, "go", nil)
	if log.End.Text != "ok" {
		t.Fatalf("turn ended %q", log.End.Text)
	}
	var got []string
	for _, r := range srv.Requests() {
		if msgs := sessiontest.ToolMessages(r); len(msgs) == 4 {
			got = msgs
		}
	}
	if !strings.Contains(got[1], "is still running") || !strings.Contains(got[2], `no sub-agent "#7"`) || !strings.Contains(got[3], "needs a prompt") {
		t.Fatalf("results %q", got)
	}
}

func TestContinueAgentFromTheKeyboardDeliversToTheMainAgent(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case sessiontest.HasUser(r, "[#2 done]") && !sessiontest.IsChild(r):
			w.Text("main got the follow-up")
		default:
			followUpScript(r, w)
		}
	}, nil)
	sessiontest.RunTurn(t, s, "find auth", nil)
	if err := s.ContinueAgent("1", "Now check expiry."); err != nil {
		t.Fatal(err)
	}
	events := sessiontest.ReadUntil(t, s, sessiontest.MainEnded)
	if end := events[len(events)-1].(event.TurnEnded); end.Text != "main got the follow-up" {
		t.Fatalf("wake turn %q", end.Text)
	}
	checkContinued(t, srv)
	if err := s.ContinueAgent("explore-9", "x"); err == nil {
		t.Fatal("continuing an unknown child worked")
	}
}

// A follow-up the person denies, giving no reason, never ran: the main
// agent reads that the person denied it, and the child it would have
// continued is free to be continued again.
func TestDeniedFollowUpLeavesTheChildToContinue(t *testing.T) {
	s, srv := newTestSession(t, followUpScript, func(c *engine.Config) { c.Mode = permission.Ask })
	allow := func(*event.ApprovalRequest) event.Answer { return event.Answer{Decision: event.Allow} }
	sessiontest.RunTurn(t, s, "find auth", allow)
	denied := sessiontest.RunTurn(t, s, "ask more", func(*event.ApprovalRequest) event.Answer { return event.Answer{Decision: event.Deny} })
	if f := sessiontest.Of[event.AgentFinished](denied); len(f) != 1 || f[0].Status != event.StatusDenied {
		t.Fatalf("the denied follow-up ended %+v", f)
	}
	last := srv.Requests()[len(srv.Requests())-1]
	if !last.HasToolResult("the person denied this delegation") {
		t.Fatalf("the main agent read %q", sessiontest.ToolMessages(last))
	}
	again := sessiontest.RunTurn(t, s, "ask more", allow)
	if f := sessiontest.Of[event.AgentFinished](again); len(f) != 1 || f[0].Status != event.StatusCompleted || f[0].Text != "EXPIRY is in session.go" {
		t.Fatalf("the follow-up asked again ended %+v", f)
	}
}
