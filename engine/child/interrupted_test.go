package child_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// interruptScript is a main agent that starts a writer in a worktree and
// a reader side by side. Before the crash (blocked set) the writer drafts
// notes.md and then runs a command that never ends, and the reader reads
// README.md and then waits in its next request, each telling ready. After
// it, the resumed writer finishes notes.md and the retried reader answers.
func interruptScript(blocked bool, ready chan<- event.AgentID, mu *sync.Mutex, asked map[string][]*llmtest.Request) llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		if !sessiontest.IsChild(r) {
			if sessiontest.LastIsUser(r, "start both") {
				w.ToolCalls(llmtest.Call{ID: "w", Name: "task", Args: `{"description":"write notes","prompt":"write the notes","subagent_type":"general-purpose","isolation":"worktree"}`},
					sessiontest.TaskCall("r", "explore", "read readme", "read the readme"))
				return
			}
			w.Text("answer to: " + r.LastUser())
			return
		}
		who, results := r.Body.Messages[1].Content, len(sessiontest.ToolMessages(r))
		mu.Lock()
		asked[who] = append(asked[who], r)
		mu.Unlock()
		switch {
		case who == "write the notes" && results == 0:
			w.Chunk(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"role": "assistant", "content": "drafting the notes"}}}})
			w.ToolCalls(llmtest.Call{ID: "d", Name: "write_file", Args: `{"path":"notes.md","content":"draft\n"}`})
		case who == "write the notes" && blocked:
			w.ToolCalls(llmtest.Call{ID: "s", Name: "run_command", Args: `{"command":"exec sleep 300"}`})
		case who == "write the notes" && results == 2:
			w.ToolCalls(llmtest.Call{ID: "f", Name: "write_file", Args: `{"path":"notes.md","content":"draft\nfinal\n"}`})
		case who == "write the notes":
			w.Text("notes finished")
		case results == 0:
			w.ToolCalls(llmtest.Call{ID: "rd", Name: "read_file", Args: `{"path":"README.md"}`})
		case blocked:
			ready <- "reader"
			<-w.Context().Done()
		default:
			w.Text("the readme says hello")
		}
	}
}

// TestInterruptedChildrenResumeAndRetry: baton dies (what is on disk is
// what a kill -9 leaves) while a writer in a worktree runs a command and a
// reader waits for the model. After --continue both are listed as
// interrupted with their partial work, the writer's change waits for
// review; resuming the writer continues its transcript (the command it
// was running marked as stopped) in the same worktree, and its change is
// reviewed once, as the follow-up's; retrying the reader starts its task
// afresh. Nothing is applied twice.
func TestInterruptedChildrenResumeAndRetry(t *testing.T) {
	store, workspace, dir := sessiontest.NewRecorded(t, nil)
	sessiontest.WriteFile(t, workspace, "README.md", "hello\n")
	sessiontest.GitRepo(t, workspace)
	worktrees := t.TempDir()
	var mu sync.Mutex
	asked := map[string][]*llmtest.Request{}
	ready := make(chan event.AgentID, 1)
	// Children in baton's own process: those in processes of their own
	// run on when baton dies (TestDetachedChildrenAreTakenUpAgain).
	live, _ := newTestSession(t, interruptScript(true, ready, &mu, asked), func(c *engine.Config) {
		recordTo(workspace, dir)(c)
		c.Worktrees.Root, c.Runner = worktrees, child.RunnerLocal
	})
	if err := live.Submit("start both"); err != nil {
		t.Fatal(err)
	}
	// Both children's starts are read, whichever order they come in
	// beside the writer's command.
	var writer, reader event.AgentID
	writing := false
	sessiontest.ReadUntil(t, live, func(ev event.Event) bool {
		switch e := ev.(type) {
		case event.AgentStarted:
			if e.Prompt == "write the notes" {
				writer = e.Agent
			} else {
				reader = e.Agent
			}
		case event.ToolStarted:
			writing = writing || (e.Agent == writer && e.Name == "run_command")
		}
		return writing && reader != ""
	})
	<-ready // the reader waits for the model
	crash := snapshot(t, dir.Path(), worktrees)
	live.Close()
	crash.restore(t)

	again, err := store.Open(workspace, dir.ID())
	if err != nil {
		t.Fatal(err)
	}
	resumed, _ := newTestSession(t, interruptScript(false, nil, &mu, asked), func(c *engine.Config) {
		recordTo(workspace, again)(c)
		c.Worktrees.Root, c.Runner = worktrees, child.RunnerLocal
	})
	notes := strings.Join(resumed.ResumeNotes(), "; ")
	sessiontest.Contains(t, "resume notes", notes, "2 sub-agents were interrupted when baton stopped (#1 "+string(writer)+", #2 "+string(reader)+")")
	sessiontest.Contains(t, "resume notes", notes, "/subagents resume N")
	interrupted := map[event.AgentID]event.AgentFinished{}
	for _, ev := range resumed.History() {
		if f, ok := ev.(event.AgentFinished); ok && f.Status == event.StatusInterrupted {
			interrupted[f.Agent] = f
		}
	}
	w, r := interrupted[writer], interrupted[reader]
	if w.Text != "drafting the notes" || w.Stats.ToolCalls != 2 || w.Change == nil || w.Change.State != event.ChangePending || w.Change.Files != 1 {
		t.Fatalf("the interrupted writer lost its partial work: %+v (change %+v)", w, w.Change)
	}
	if r.Stats.ToolCalls != 1 || r.Stats.Steps != 1 {
		t.Fatalf("the interrupted reader lost its partial work: %+v", r)
	}
	tree := w.Change.Worktree

	if err := resumed.ResumeAgent("#1"); err != nil {
		t.Fatal(err)
	}
	var follow event.AgentFinished
	sessiontest.ReadUntil(t, resumed, func(ev event.Event) bool {
		f, ok := ev.(event.AgentFinished)
		if ok && f.Agent != writer && f.Agent != reader {
			follow = f
		}
		return ok
	})
	if follow.Status != event.StatusCompleted || follow.Text != "notes finished" || follow.Change == nil || follow.Change.Worktree != tree {
		t.Fatalf("the resumed writer ended %+v (change %+v), want completed in %s", follow, follow.Change, tree)
	}
	mu.Lock()
	last := asked["write the notes"][len(asked["write the notes"])-2]
	mu.Unlock()
	stopped := sessiontest.ToolMessages(last)
	if len(stopped) < 2 || !strings.Contains(stopped[1], "baton stopped before this call finished") || !sessiontest.HasUser(last, "You were interrupted") {
		t.Fatalf("the resumed writer's request did not continue its transcript with the command marked stopped: %q", stopped)
	}
	if _, err := resumed.Review(writer); err == nil {
		t.Fatal("the interrupted writer's change is still offered for review beside its follow-up's")
	}
	review, err := resumed.Review(follow.Agent)
	if err != nil || len(review.Files) != 1 {
		t.Fatalf("the follow-up's change: %+v, %v", review, err)
	}
	if _, err := resumed.ApplyChange(t.Context(), follow.Agent, -1, -1, ""); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(workspace, "notes.md")); string(got) != "draft\nfinal\n" {
		t.Fatalf("notes.md after applying the resumed writer's change: %q", got)
	}

	if err := resumed.RetryAgent(reader); err != nil {
		t.Fatal(err)
	}
	var retried event.AgentFinished
	sessiontest.ReadUntil(t, resumed, func(ev event.Event) bool {
		f, ok := ev.(event.AgentFinished)
		retried = f
		return ok
	})
	mu.Lock()
	first := asked["read the readme"][len(asked["read the readme"])-2]
	mu.Unlock()
	if retried.Status != event.StatusCompleted || retried.Text != "the readme says hello" || len(first.Body.Messages) != 2 {
		t.Fatalf("the retried reader ended %+v; its first request held %d messages, want a fresh start", retried, len(first.Body.Messages))
	}
}

// crashState is what was on disk at one moment: a session's transcripts
// and the worktrees' records.
type crashState map[string][]byte

// snapshot keeps the files under the given folders as they are now.
func snapshot(t *testing.T, dirs ...string) crashState {
	t.Helper()
	state := crashState{}
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(path string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() || (!strings.HasSuffix(path, ".jsonl") && !strings.HasSuffix(path, ".json")) {
				return err
			}
			data, err := os.ReadFile(path)
			state[path] = data
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return state
}

// restore puts the files back as they were, as if nothing had run since:
// what a crash at that moment would have left.
func (s crashState) restore(t *testing.T) {
	t.Helper()
	for path, data := range s {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
