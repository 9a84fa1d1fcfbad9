package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed-e4e525a6/baton/engine/event"
)

func TestCardShrinksTheConversationAboveIt(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "fix it"})
	var text strings.Builder
	for i := range 30 {
		fmt.Fprintf(&text, "line %d of the plan\n\n", i)
	}
	text.WriteString("I will now edit the file.")
	d.emit(event.TextDelta{Meta: mainMeta, Text: text.String()}, event.MessageDone{Meta: mainMeta})
	var diff strings.Builder
	for i := range 10 {
		fmt.Fprintf(&diff, "+added %d\n", i)
	}
	req := &event.ApprovalRequest{ID: "p1", Kind: event.ApproveTool, Tool: "edit_file", Preview: diff.String()}
	newRequest(t, req)
	d.emit(event.ApprovalRequested{Meta: mainMeta, Request: req})
	screen := d.screen()
	if !strings.Contains(screen, "I will now edit the file.") {
		t.Errorf("the card hides the newest conversation line:\n%s", screen)
	}
	if strings.Index(screen, "I will now edit") > strings.Index(screen, "edit_file") {
		t.Errorf("the conversation is not above the card:\n%s", screen)
	}
	d.checkFits()
}

// At 60×20 a worktree child's edit card shows its diff first: the
// child's title on one line, the worktree on one line (its leading
// folders dropped), the card whole (its top not pushed off), and more of
// the ten changed lines than the one a three-line path left room for.
func TestGoldenWorktreeEditCard(t *testing.T) {
	for _, width := range []int{60, 80, 120} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			d := newDriver(t, width, 20)
			d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
			k := kid{"general-purpose-3", "general-purpose", "tidy the parser"}
			d.spawn(k)
			var diff strings.Builder
			diff.WriteString("--- a/parse.go\n+++ b/parse.go\n@@ -1,5 +1,5 @@\n")
			for i := range 5 {
				fmt.Fprintf(&diff, "-old line %d\n+new line %d\n", i, i)
			}
			req := &event.ApprovalRequest{ID: "p1", Kind: event.ApproveTool, Tool: "edit_file", Args: `{"path":"parse.go"}`, Preview: diff.String(),
				Worktree: "/home/person/.local/state/baton/worktrees/app-1a2b3c4d/20260102-0304-abcd/general-purpose-3"}
			newRequest(t, req)
			d.emit(event.ApprovalRequested{Meta: k.meta(time.Second), Request: req})
			d.fire()
			screen := d.screen()
			shown := 0
			for _, line := range strings.Split(screen, "\n") {
				if strings.Contains(line, "old line") || strings.Contains(line, "new line") {
					shown++
				}
				if strings.Contains(line, "worktree") && !strings.Contains(line, "general-purpose-3") {
					t.Errorf("the worktree line does not name the child's folder: %q", line)
				}
			}
			if shown < 2 {
				t.Errorf("the card shows %d of the 10 changed lines:\n%s", shown, screen)
			}
			for _, want := range []string{"╭", "asks: Allow edit_file?", "esc deny & stop this child"} {
				if !strings.Contains(screen, want) {
					t.Errorf("the card lacks %q:\n%s", want, screen)
				}
			}
			d.checkFits()
			golden.RequireEqual(t, []byte(screen+"\n"))
		})
	}
}
