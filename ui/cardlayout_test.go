package ui

import (
	"fmt"
	"strings"
	"testing"

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
