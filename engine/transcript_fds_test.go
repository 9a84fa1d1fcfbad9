package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
)

// openFilesUnder counts this process's descriptors open on files in dir.
func openFilesUnder(t *testing.T, dir string) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd here: %v", err)
	}
	n := 0
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && strings.HasPrefix(target, dir+string(filepath.Separator)) {
			n++
		}
	}
	return n
}

// TestFinishedChildrenCloseTheirTranscripts: a session that runs more
// children than a small open-file limit allows holds only the main
// transcript open once they have finished (their files are synced in the
// background and settled by the end of the turn), and a finished child's
// file still takes what is written about it later.
func TestFinishedChildrenCloseTheirTranscripts(t *testing.T) {
	const children = 70
	_, workspace, dir := newRecorded(t, nil)
	s, _ := newTestSession(t, func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case isChild(r):
			w.Text("done: " + r.Body.Messages[1].Content)
		case lastIsUser(r, "fan out"):
			calls := make([]llmtest.Call, children)
			for i := range calls {
				calls[i] = taskCall(fmt.Sprintf("t%d", i), "explore", fmt.Sprintf("look %d", i), fmt.Sprintf("look at part %d", i))
			}
			w.ToolCalls(calls...)
		default:
			w.Text("all done")
		}
	}, recordTo(workspace, dir))
	log := runTurn(t, s, "fan out", nil)
	finished := eventsOf[event.AgentFinished](log)
	if len(finished) != children {
		t.Fatalf("%d of %d children finished", len(finished), children)
	}
	if n := openFilesUnder(t, dir.Path()); n > 1 {
		t.Fatalf("%d transcript files open after %d children finished; want only the main one", n, children)
	}
	last := finished[len(finished)-1]
	s.emit(event.Notice{Meta: last.Meta, Text: "written after the end"})
	// The late record's file is synced and closed in the background.
	if err := dir.Settle(); err != nil {
		t.Fatal(err)
	}
	if n := openFilesUnder(t, dir.Path()); n > 1 {
		t.Fatalf("%d transcript files open after a late record", n)
	}
	data, err := os.ReadFile(dir.FileOf(string(last.Agent)))
	if err != nil {
		t.Fatal(err)
	}
	contains(t, "finished child's transcript", string(data), "agent_finished")
	contains(t, "finished child's transcript", string(data), "written after the end")
}
