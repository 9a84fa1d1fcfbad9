package engine

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// reuseIDScript answers every prompt starting "read" with one read_file
// call whose id is always "dup", as a lax provider may across turns, then
// with text. A strict one rejects any history it would not accept.
func reuseIDScript(strict bool) llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		if err := r.StrictHistory(); strict && err != nil {
			w.Error(400, `{"error":{"message":"strict provider: `+strings.ReplaceAll(err.Error(), `"`, `'`)+`"}}`)
			return
		}
		reuseID(r, w)
	}
}

// reuseID is reuseIDScript's answer.
func reuseID(r *llmtest.Request, w *llmtest.Writer) {
	if last := r.Body.Messages[len(r.Body.Messages)-1]; last.Role == "user" && strings.HasPrefix(last.Content, "read") {
		w.ToolCalls(llmtest.Call{ID: "dup", Name: "read_file", Args: `{"path":"notes.txt"}`})
		return
	}
	w.Text("answer to: " + r.LastUser())
}

// TestResumeRepairsCorruptMiddleLine corrupts, in the middle of a
// transcript, the assistant message of a turn's tool call. The resumed
// request is one a strict provider accepts: the orphan result is dropped,
// the id reused across turns is made unique, and the notes say so.
func TestResumeRepairsCorruptMiddleLine(t *testing.T) {
	_, workspace, dir := newRecorded(t, nil)
	writeFile(t, workspace, "notes.txt", "a note\n")
	first, _ := newTestSession(t, reuseIDScript(false), recordTo(workspace, dir))
	for _, p := range []string{"read one", "read two", "read three"} {
		if log := runTurn(t, first, p, nil); log.End.Status != event.StatusCompleted {
			t.Fatalf("%s: %s", p, log.End.Status)
		}
	}
	first.Close()
	file := dir.FileOf(transcript.MainAgent)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	calls := 0
	for i, line := range lines {
		if strings.Contains(line, `"kind":"message"`) && strings.Contains(line, `"tool_calls"`) {
			if calls++; calls == 2 {
				lines[i] = `{"time":"2026-11-25T10:00:00Z","kind":"mess` + "\x00garbage"
			}
		}
	}
	if calls != 3 {
		t.Fatalf("found %d tool-call messages in the transcript, want 3", calls)
	}
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}

	resumed, srv := newTestSession(t, reuseIDScript(true), recordTo(workspace, dir))
	notes := strings.Join(resumed.ResumeNotes(), "\n")
	for _, want := range []string{"corrupt line", "dropped 1 tool result", "renamed 1 tool call"} {
		contains(t, "resume notes", notes, want)
	}
	if log := runTurn(t, resumed, "carry on", nil); log.End.Status != event.StatusCompleted {
		t.Fatalf("the resumed turn ended %s", log.End.Status)
	}
	req := srv.Requests()[0]
	if err := req.StrictHistory(); err != nil {
		t.Fatalf("a strict provider rejects the resumed history: %v", err)
	}
}

// TestResumeReportsGarbageTranscript: a transcript with no readable
// record is an error naming the file, never a silent new session.
func TestResumeReportsGarbageTranscript(t *testing.T) {
	_, workspace, dir := newRecorded(t, nil)
	if err := os.WriteFile(dir.FileOf(transcript.MainAgent), []byte("\x7fELF garbage\nmore garbage\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, reuseIDScript(true))
	_, err := NewSession(context.Background(), Config{Client: srv.Client(), Model: "m", Workspace: workspace, Transcript: dir})
	if err == nil || !strings.Contains(err.Error(), "no readable record") || !strings.Contains(err.Error(), "main.jsonl") {
		t.Fatalf("NewSession on a garbage transcript: %v", err)
	}
	if data, _ := os.ReadFile(dir.FileOf(transcript.MainAgent)); !strings.HasPrefix(string(data), "\x7fELF") {
		t.Fatal("the garbage transcript was overwritten")
	}
}
