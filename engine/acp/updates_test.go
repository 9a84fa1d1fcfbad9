package acp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/acp/acptest"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

func TestDiffContentKeepsOldAndNewTextOfTheHunks(t *testing.T) {
	edit := "--- a/src/a.go\n+++ b/src/a.go\n@@ -1,3 +1,3 @@\n package a\n--- a dash line removed\n+++ a plus line added\n \n\\ No newline at end of file\n"
	got := diffContent("/ws", edit)
	if len(got) != 1 || got[0].Path != "/ws/src/a.go" || *got[0].OldText != "package a\n-- a dash line removed\n" ||
		*got[0].NewText != "package a\n++ a plus line added\n" {
		t.Errorf("edit diff: %+v old %q new %q", got, deref(got[0].OldText), deref(got[0].NewText))
	}
	created := diffContent("/ws", "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n")
	if len(created) != 1 || created[0].OldText != nil || *created[0].NewText != "one\ntwo" {
		t.Errorf("new file diff: %+v", created)
	}
	if odd := diffContent("/ws", "no changes to x"); len(odd) != 1 || odd[0].Type != "content" {
		t.Errorf("text that is no diff: %+v", odd)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func TestPlanMapsTheTaskList(t *testing.T) {
	got := plan([]event.Todo{
		{Content: "read the code", Status: event.TodoCompleted},
		{Content: "write the fix", Status: event.TodoInProgress, Priority: "high"},
		{Content: "drop the old API", Status: event.TodoCancelled, Priority: "urgent"},
		{Content: "run the tests", Status: event.TodoPending},
	})
	data, _ := json.Marshal(got)
	want := `{"sessionUpdate":"plan","entries":[` +
		`{"content":"read the code","priority":"medium","status":"completed"},` +
		`{"content":"write the fix","priority":"high","status":"in_progress"},` +
		`{"content":"(cancelled) drop the old API","priority":"medium","status":"completed"},` +
		`{"content":"run the tests","priority":"medium","status":"pending"}]}`
	if string(data) != want {
		t.Errorf("plan:\n%s\nwant\n%s", data, want)
	}
}

func TestAttachedTextKeepsItsFenceAndBound(t *testing.T) {
	body := "before\n```\ninner fence\n```\nafter"
	got := attached(resourceContent{URI: "file:///ws/doc.md", Text: &body}, "/ws")
	if !strings.HasPrefix(got, "Attached: doc.md\n````\n") || !strings.HasSuffix(got, "\n````") {
		t.Errorf("a text holding a fence is not fenced longer:\n%s", got)
	}
	big := strings.Repeat("a", maxAttachedBytes+10)
	if cut := attached(resourceContent{URI: "file:///elsewhere/big.txt", Text: &big}, "/ws"); !strings.Contains(cut, "[cut at 256 KiB") ||
		!strings.HasPrefix(cut, "Attached: /elsewhere/big.txt") {
		t.Errorf("a large attachment: %.80s … %s", cut, cut[len(cut)-40:])
	}
	blob := "AAAA"
	if got := attached(resourceContent{URI: "file:///ws/img.png", Blob: &blob}, "/ws"); got != "Attached: img.png (binary content, not included)" {
		t.Errorf("a binary attachment: %q", got)
	}
}

func TestTodoWriteBecomesThePlan(t *testing.T) {
	r := newRig(t, func(req *llmtest.Request, w *llmtest.Writer) {
		if len(toolResults(req)) == 0 {
			w.ToolCalls(llmtest.Call{ID: "p1", Name: "todo_write", Args: `{"todos":[{"content":"look around","status":"in_progress"},{"content":"report","status":"pending"}]}`})
			return
		}
		w.Text("planned")
	})
	session := r.newSession()
	r.mustPrompt(session, "plan it")
	u, _ := r.client.WaitUpdate(0, func(u acptest.Update) bool { return u.Kind == "plan" })
	var p planUpdate
	if err := u.Field(&p); err != nil || len(p.Entries) != 2 || p.Entries[0].Status != "in_progress" || p.Entries[1].Content != "report" {
		t.Errorf("plan update: %+v (%v)", p, err)
	}
}
