package child_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// editsPerChild is how many edits each child makes to the shared file.
const editsPerChild = 30

// TestTwoChildrenEditOneFile runs two children that each make 30 edits to
// one file, every edit asked for and approved: all 60 land, and every
// approval card showed exactly the diff that was then written, so no
// child ever worked on a stale copy of the file.
func TestTwoChildrenEditOneFile(t *testing.T) {
	var lines []string
	for _, who := range []string{"A", "B"} {
		for i := range editsPerChild {
			lines = append(lines, fmt.Sprintf("%s%02d todo", who, i))
		}
	}
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		if !sessiontest.IsChild(r) {
			if len(sessiontest.ToolMessages(r)) == 0 {
				w.ToolCalls(sessiontest.TaskCall("a", "general-purpose", "edit A", "edit A"), sessiontest.TaskCall("b", "general-purpose", "edit B", "edit B"))
				return
			}
			w.Text("both done")
			return
		}
		who := strings.TrimPrefix(r.Body.Messages[1].Content, "edit ")
		done := len(sessiontest.ToolMessages(r))
		if done == editsPerChild {
			w.Text("edited")
			return
		}
		w.ToolCalls(llmtest.Call{ID: fmt.Sprintf("e%d", done), Name: "edit_file",
			Args: fmt.Sprintf(`{"path":"shared.txt","old_string":"%s%02d todo","new_string":"%s%02d done"}`, who, done, who, done)})
	}, func(c *engine.Config) {
		c.Mode = permission.Ask
		c.Limits.ChildStepsWrite = editsPerChild + 5
		sessiontest.WriteFile(t, c.Workspace, "shared.txt", strings.Join(lines, "\n")+"\n")
	})
	log := sessiontest.RunTurn(t, s, "edit both halves", nil)
	if log.End.Status != event.StatusCompleted {
		t.Fatalf("turn ended %s", log.End.Status)
	}
	data, err := os.ReadFile(filepath.Join(s.Workspace(), "shared.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), " done"); n != 2*editsPerChild {
		t.Errorf("%d of %d edits landed:\n%s", n, 2*editsPerChild, data)
	}
	previews := map[string]string{} // args → the diff the card showed
	for _, ev := range sessiontest.Of[event.ApprovalRequested](log) {
		if ev.Request.Tool == "edit_file" {
			previews[ev.Request.Args] = ev.Request.Preview
		}
	}
	args := map[string]string{} // agent/call → args
	for _, ev := range sessiontest.Of[event.ToolStarted](log) {
		args[string(ev.Agent)+"/"+ev.CallID] = ev.Args
	}
	checked := 0
	for _, ev := range sessiontest.Of[event.ToolFinished](log) {
		if ev.Name != "edit_file" {
			continue
		}
		if ev.IsError {
			t.Errorf("%s %s failed: %s", ev.Agent, ev.CallID, ev.Output)
			continue
		}
		if p := previews[args[string(ev.Agent)+"/"+ev.CallID]]; p != ev.Diff {
			t.Errorf("%s %s: the card showed\n%s\nbut the write made\n%s", ev.Agent, ev.CallID, p, ev.Diff)
		}
		checked++
	}
	if checked != 2*editsPerChild {
		t.Errorf("checked %d edits, want %d", checked, 2*editsPerChild)
	}
}
