package child_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/agenttypes/corpus"
	"github.com/seed-e4e525a6/baton/engine"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/engine/child"
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/permission"
	"github.com/seed-e4e525a6/baton/engine/sessiontest"
)

// writingChild scripts a main agent that delegates one write with the
// task arguments given, and a child that writes out.txt.
func writingChild(taskArgs string) llmtest.Responder {
	return func(r *llmtest.Request, w *llmtest.Writer) {
		switch {
		case !sessiontest.IsChild(r) && len(sessiontest.ToolMessages(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "a", Name: child.TaskToolName, Args: taskArgs})
		case !sessiontest.IsChild(r):
			w.Text("done")
		case len(sessiontest.ToolMessages(r)) == 0:
			w.ToolCalls(llmtest.Call{ID: "w", Name: "write_file", Args: `{"path":"out.txt","content":"hi\n"}`})
		default:
			w.Text("wrote")
		}
	}
}

// cardsOf runs a turn that answers every card with allow and returns them.
func cardsOf(t *testing.T, s *engine.Session) []*event.ApprovalRequest {
	t.Helper()
	var cards []*event.ApprovalRequest
	sessiontest.RunTurn(t, s, "go", func(r *event.ApprovalRequest) event.Answer {
		cards = append(cards, r)
		return event.Answer{Decision: event.Allow}
	})
	return cards
}

// TestWorktreeChildsCardNamesItsWorktree: a worktree child's write card
// says the folder it writes in, which is not the person's tree; a shared
// child's card names none.
func TestWorktreeChildsCardNamesItsWorktree(t *testing.T) {
	for _, iso := range []string{"worktree", "shared"} {
		root := t.TempDir()
		s, _ := newTestSession(t, writingChild(`{"description":"write","prompt":"write it","subagent_type":"general-purpose","isolation":"`+iso+`"}`), func(c *engine.Config) {
			c.Mode = permission.Ask
			c.Worktrees.Root = root
			sessiontest.WriteFile(t, c.Workspace, "keep.txt", "x\n")
			sessiontest.GitRepo(t, c.Workspace)
		})
		var write *event.ApprovalRequest
		for _, r := range cardsOf(t, s) {
			if r.Tool == "write_file" {
				write = r
			}
		}
		if write == nil {
			t.Fatalf("%s: no write card", iso)
		}
		if iso == "shared" {
			if write.Worktree != "" {
				t.Errorf("a shared child's card names worktree %q", write.Worktree)
			}
			continue
		}
		if !strings.HasPrefix(write.Worktree, root) || write.Worktree == s.Workspace() {
			t.Fatalf("worktree %q, want one under %s", write.Worktree, root)
		}
		if _, err := os.Stat(filepath.Join(s.Workspace(), "out.txt")); !os.IsNotExist(err) {
			t.Errorf("the worktree child wrote in the person's tree: %v", err)
		}
	}
}

// TestBackgroundDelegationCardSaysSo: the card of a background task
// says the child runs in the background; a foreground one does not.
func TestBackgroundDelegationCardSaysSo(t *testing.T) {
	for _, bg := range []bool{true, false} {
		args := `{"description":"find","prompt":"find it","subagent_type":"explore"}`
		if bg {
			args = `{"description":"find","prompt":"find it","subagent_type":"explore","background":true}`
		}
		s, _ := newTestSession(t, writingChild(args), func(c *engine.Config) { c.Mode = permission.Ask })
		cards := cardsOf(t, s)
		if len(cards) == 0 || cards[0].Delegation == nil {
			t.Fatalf("background %v: no delegation card: %+v", bg, cards)
		}
		if cards[0].Delegation.Background != bg {
			t.Errorf("card says background %v, want %v", cards[0].Delegation.Background, bg)
		}
	}
}

// TestCardSaysWhatAnOpenCodeAgentLacks: a delegation to a real OpenCode
// agent (see testdata/agents/real/SOURCES) that relied on OpenCode's
// default webfetch says on its card that the child does not get it, and
// how to grant it; one whose file grants it says nothing.
func TestCardSaysWhatAnOpenCodeAgentLacks(t *testing.T) {
	data := corpus.Read(t, "anomalyco__opencode/.opencode/agent/docs.md")
	for _, tc := range []struct {
		file, want string
	}{
		{string(data), "web_fetch (OpenCode's default; to grant: webfetch: allow under permission: in docs.md)"},
		{"---\ndescription: Writes docs\npermission:\n  webfetch: allow\n---\nYou write docs.", ""},
	} {
		s, _ := newTestSession(t, writingChild(`{"description":"docs","prompt":"write docs","subagent_type":"docs"}`), func(c *engine.Config) {
			c.Mode = permission.Ask
			sessiontest.WriteFile(t, c.Workspace, ".opencode/agent/docs.md", tc.file)
			c.Types = agenttypes.Load(agenttypes.LoadOptions{ProjectDir: c.Workspace})
		})
		var got *event.DelegationPreview
		for _, r := range cardsOf(t, s) {
			if r.Delegation != nil {
				got = r.Delegation
			}
		}
		if got == nil || got.Withheld != tc.want {
			t.Errorf("card %+v, want withheld %q", got, tc.want)
		}
	}
}
