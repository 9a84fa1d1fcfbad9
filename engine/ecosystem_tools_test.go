package engine

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// claudeTodos is todo_write's arguments in Claude Code's TodoWrite shape.
const claudeTodos = `{"todos":[{"content":"Read the code","status":"completed","activeForm":"Reading the code"},` +
	`{"content":"Fix the bug","status":"in_progress","activeForm":"Fixing the bug"},{"content":"Run tests","status":"pending","activeForm":"Running tests"}]}`

// answerOnce has the main agent make call on the first request and
// answer plainly after it.
func answerOnce(call llmtest.Call) llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		if len(toolMessages(r)) == 0 {
			w.ToolCalls(call)
			return
		}
		w.Text("done")
	}
}

func TestTodoWriteShowsTheListAndSurvivesResume(t *testing.T) {
	store, workspace, dir := newRecorded(t, nil)
	script := answerOnce(llmtest.Call{ID: "c1", Name: "todo_write", Args: claudeTodos})
	s, srv := newTestSession(t, script, func(c *Config) { recordTo(workspace, dir)(c); c.Mode = permission.Ask })
	log := runTurn(t, s, "fix it", func(r *event.ApprovalRequest) event.Answer {
		t.Errorf("todo_write asked for approval: %+v", r)
		return event.Answer{Decision: event.Deny}
	})
	updates := eventsOf[event.TodosUpdated](log)
	if len(updates) != 1 || updates[0].Agent != event.MainAgent || len(updates[0].Todos) != 3 {
		t.Fatalf("updates %+v", updates)
	}
	if td := updates[0].Todos[1]; td.Content != "Fix the bug" || td.ActiveForm != "Fixing the bug" || td.Status != "in_progress" {
		t.Fatalf("second item %+v", td)
	}
	reqs := srv.Requests()
	contains(t, "tool result", strings.Join(toolMessages(reqs[len(reqs)-1]), "\n"), "Task list updated (1/3 done):\n[x] Read the code\n[>] Fix the bug")
	s.Close()

	again, err := store.Latest(workspace)
	if err != nil {
		t.Fatal(err)
	}
	resumed, _ := newTestSession(t, script, recordTo(workspace, again))
	var replayed []event.TodosUpdated
	for _, ev := range resumed.History() {
		if u, ok := ev.(event.TodosUpdated); ok {
			replayed = append(replayed, u)
		}
	}
	if len(replayed) != 1 || len(replayed[0].Todos) != 3 || replayed[0].Todos[2].Content != "Run tests" {
		t.Fatalf("resumed history holds %+v, want the list", replayed)
	}
}

func TestChildTodoWriteIsTaggedWithTheChild(t *testing.T) {
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r) && len(toolMessages(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "k1", Name: "todo_write", Args: `{"todos":[{"id":"1","content":"Look","status":"in_progress","priority":"high"}]}`})
		case isChild(r):
			w.Text("looked")
		case len(toolMessages(r)) == 0:
			w.ToolCalls(taskCall("t1", "general-purpose", "do it", "Do the thing."))
		default:
			w.Text("ok")
		}
	}, nil)
	log := runTurn(t, s, "go", nil)
	updates := eventsOf[event.TodosUpdated](log)
	if len(updates) != 1 || updates[0].Agent == event.MainAgent || updates[0].Parent != event.MainAgent || updates[0].Todos[0].Priority != "high" {
		t.Fatalf("updates %+v", updates)
	}
}

func TestWebFetchAsksAndReturnsMarkdown(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<h2>Usage</h2><p>Call <b>Run</b> first.</p>")
	}))
	defer page.Close()
	url := page.URL + "/docs"
	s, srv := newTestSession(t, answerOnce(llmtest.Call{ID: "w1", Name: "web_fetch", Args: fmt.Sprintf(`{"url":%q,"prompt":"usage"}`, url)}),
		func(c *Config) { c.Mode = permission.Ask; c.WebFetch = tools.WebFetchOptions{AllowPrivate: true} })
	var asked []*event.ApprovalRequest
	runTurn(t, s, "read the docs", func(r *event.ApprovalRequest) event.Answer {
		asked = append(asked, r)
		return event.Answer{Decision: event.Allow}
	})
	if len(asked) != 1 || asked[0].Tool != "web_fetch" || asked[0].Preview != "GET "+url {
		t.Fatalf("approvals %+v, want one for web_fetch showing the GET", asked)
	}
	reqs := srv.Requests()
	result := strings.Join(toolMessages(reqs[len(reqs)-1]), "\n")
	contains(t, "tool result", result, "## Usage\n\nCall **Run** first.")
	contains(t, "tool result", result, "URL: "+url)
}

func TestWebFetchRefusesLoopbackUnlessAllowed(t *testing.T) {
	var hits atomic.Int32
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer page.Close()
	s, srv := newTestSession(t, answerOnce(llmtest.Call{ID: "w1", Name: "web_fetch", Args: fmt.Sprintf(`{"url":%q}`, page.URL)}), nil)
	runTurn(t, s, "fetch", nil)
	reqs := srv.Requests()
	contains(t, "tool result", strings.Join(toolMessages(reqs[len(reqs)-1]), "\n"), "web_fetch refuses 127.0.0.1")
	if hits.Load() != 0 {
		t.Fatal("the loopback server was reached")
	}
}

func TestWebFetchGoneWhenTheNetworkIsOff(t *testing.T) {
	s, srv := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("ok") }, func(c *Config) { c.SandboxNetwork = "off" })
	runTurn(t, s, "hi", nil)
	for _, name := range srv.Requests()[0].ToolNames() {
		if name == "web_fetch" {
			t.Fatal("web_fetch offered with [sandbox] network = off")
		}
	}
	s2, srv2 := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("ok") }, nil)
	runTurn(t, s2, "hi", nil)
	if !slices.Contains(srv2.Requests()[0].ToolNames(), "web_fetch") || !slices.Contains(srv2.Requests()[0].ToolNames(), "todo_write") {
		t.Fatalf("the main agent's tools: %v", srv2.Requests()[0].ToolNames())
	}
}
