package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

func TestTranscriptResumeRestoresScreenAndHistory(t *testing.T) {
	store, workspace, dir := newRecorded(t, nil)
	first, _ := newTestSession(t, delegatingScript(false), recordTo(workspace, dir))
	if !first.Empty() {
		t.Fatal("a new session holds something to resume")
	}
	if names := strings.Join(first.ToolNames(), " "); !strings.Contains(names, "task") || !strings.Contains(names, "read_file") {
		t.Fatalf("the main agent is offered %s", names)
	}
	runTurn(t, first, "find auth", nil)
	if first.Empty() {
		t.Fatal("a session with a prompt in it holds nothing to resume")
	}
	file := first.TranscriptFile()
	first.Close()
	data, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(data), "find auth") {
		t.Fatalf("the main transcript %q holds no prompt: %v", file, err)
	}

	again, err := store.Latest(workspace)
	if err != nil {
		t.Fatal(err)
	}
	second, srv := newTestSession(t, delegatingScript(false), recordTo(workspace, again))
	history := second.History()
	var kinds []string
	for _, ev := range history {
		kinds = append(kinds, ev.Kind())
	}
	joined := strings.Join(kinds, " ")
	for _, want := range []string{"turn_started", "agent_started", "agent_finished", "message_done", "turn_ended"} {
		contains(t, "replayed kinds", joined, want)
	}
	var folded event.AgentFinished
	for _, ev := range history {
		if f, ok := ev.(event.AgentFinished); ok {
			folded = f
		}
	}
	if folded.Status != event.StatusCompleted || folded.Transcript == "" {
		t.Fatalf("folded child %+v", folded)
	}
	if data, err := os.ReadFile(folded.Transcript); err != nil || !strings.Contains(string(data), "Find the auth code.") {
		t.Fatalf("child transcript %s: %v %q", folded.Transcript, err, data)
	}
	records, err := second.AgentRecords(folded.Agent)
	if err != nil || len(records) < 3 {
		t.Fatalf("child records of a resumed session: %v (%d records)", err, len(records))
	}
	if second.Usage().Requests == 0 {
		t.Fatal("resumed totals are empty")
	}

	runTurn(t, second, "and then?", nil)
	req := srv.Requests()[0]
	var all strings.Builder
	for _, m := range req.Body.Messages {
		all.WriteString(m.Content + "\n")
	}
	contains(t, "resumed history", all.String(), "find auth")
	contains(t, "resumed history", all.String(), "the auth code is in auth.go")
	contains(t, "resumed history", all.String(), "answer to: find auth")

	again2 := runTurn(t, second, "find auth", nil)
	if len(eventsOf[event.AgentStarted](again2)) != 1 {
		t.Fatal("the resumed session did not delegate again")
	}
	for _, st := range eventsOf[event.AgentStarted](again2) {
		if st.Agent == folded.Agent {
			t.Fatalf("a child of the resumed session reused the id %s", st.Agent)
		}
	}
}

func TestResumeAfterCrashMarksChildInterrupted(t *testing.T) {
	store, workspace, dir := newRecorded(t, nil)
	live, _ := newTestSession(t, delegatingScript(true), recordTo(workspace, dir))
	if err := live.Submit("find auth"); err != nil {
		t.Fatal(err)
	}
	for ev := range live.Events() {
		if _, ok := ev.(event.AgentStarted); ok {
			break
		}
	}
	// What is on disk now is what a crash would leave, plus a torn line.
	snapshot, err := os.ReadFile(dir.FileOf(transcript.MainAgent))
	if err != nil {
		t.Fatal(err)
	}
	live.Close()
	crashed, err := store.Create(workspace, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	torn := append(snapshot, []byte(`{"time":"2026-11-25T10:00:00Z","kind":"ev`)...)
	if err := os.WriteFile(crashed.FileOf(transcript.MainAgent), torn, 0o600); err != nil {
		t.Fatal(err)
	}
	resumed, srv := newTestSession(t, delegatingScript(false), recordTo(workspace, crashed))
	var interrupted, reported bool
	for _, ev := range resumed.History() {
		switch e := ev.(type) {
		case event.AgentFinished:
			interrupted = e.Status == event.StatusInterrupted
		case event.Notice:
			reported = reported || strings.Contains(e.Text, "cut short")
		}
	}
	if notes := resumed.ResumeNotes(); len(notes) != 2 || !strings.Contains(notes[0], "cut short") || !strings.Contains(notes[1], "1 sub-agent was interrupted") {
		t.Fatalf("resume notes %v", notes)
	}
	if !interrupted || !reported {
		t.Fatalf("interrupted child shown: %v, torn line reported: %v", interrupted, reported)
	}
	runTurn(t, resumed, "carry on", nil)
	results := toolMessages(srv.Requests()[0])
	if len(results) != 1 || !strings.Contains(results[0], "baton stopped before this call finished") {
		t.Fatalf("dangling task call not closed: %v", results)
	}
}

func TestTranscriptNeverHoldsSecrets(t *testing.T) {
	const secret = "sk-test-1234567890abcdef"
	root := t.TempDir()
	_, workspace, dir := newRecordedIn(t, root, transcript.NewRedactor(transcript.SecretsFromEnv([]string{"OPENAI_API_KEY=" + secret})...))
	s, _ := newTestSession(t, delegatingScript(false), recordTo(workspace, dir))
	runTurn(t, s, "find auth", nil)
	runTurn(t, s, "my key is "+secret, nil)
	s.Close()
	err := walkFiles(root, func(path string, data []byte) {
		if strings.Contains(string(data), secret) {
			t.Errorf("%s holds the secret", path)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// walkFiles calls fn with every regular file under root.
func walkFiles(root string, fn func(string, []byte)) error {
	entries, err := os.ReadDir(root)
	if err != nil {
		return err
	}
	for _, e := range entries {
		path := root + "/" + e.Name()
		if e.IsDir() {
			if err := walkFiles(path, fn); err != nil {
				return err
			}
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fn(path, data)
	}
	return nil
}

func TestResumeForgetsWhatWasCleared(t *testing.T) {
	_, workspace, dir := newRecorded(t, nil)
	first, _ := newTestSession(t, delegatingScript(false), recordTo(workspace, dir))
	runTurn(t, first, "old topic", nil)
	if err := first.Clear(); err != nil {
		t.Fatal(err)
	}
	runTurn(t, first, "new topic", nil)
	first.Close()
	second, srv := newTestSession(t, delegatingScript(false), recordTo(workspace, dir))
	runTurn(t, second, "go on", nil)
	var all strings.Builder
	for _, m := range srv.Requests()[0].Body.Messages {
		all.WriteString(m.Content + "\n")
	}
	if strings.Contains(all.String(), "old topic") || !strings.Contains(all.String(), "new topic") {
		t.Fatalf("resumed history after /clear:\n%s", all.String())
	}
}

// With TrashChildTranscripts a child whose parent waited for it leaves
// no transcript behind once the turn ends: it is in the trash beside the
// main one, which stays.
func TestChildTranscriptsGoToTheTrashWhenAsked(t *testing.T) {
	_, workspace, dir := newRecorded(t, nil)
	s, _ := newTestSession(t, delegatingScript(false), func(c *Config) {
		recordTo(workspace, dir)(c)
		c.TrashChildTranscripts = true
	})
	finished := eventsOf[event.AgentFinished](runTurn(t, s, "find auth", nil))
	if len(finished) != 1 {
		t.Fatalf("%d children finished", len(finished))
	}
	s.Close() // the turn's end, trash included, is behind it
	if _, err := os.Stat(dir.FileOf(string(finished[0].Agent))); !os.IsNotExist(err) {
		t.Fatalf("the child's transcript is still there: %v", err)
	}
	trashed, err := filepath.Glob(dir.FileOf(string(finished[0].Agent)) + "*")
	if err != nil || len(trashed) != 1 {
		t.Fatalf("the child's transcript in the trash: %v, %v", trashed, err)
	}
	if _, err := os.Stat(s.TranscriptFile()); err != nil {
		t.Fatalf("the main transcript went too: %v", err)
	}
}
