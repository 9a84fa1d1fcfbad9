package agent

import "testing"

func TestInboxRefusesMessagesAfterTheAgentFinished(t *testing.T) {
	var b inbox
	if err := b.push("first"); err != nil {
		t.Fatal(err)
	}
	if left := b.close(); len(left) != 1 || left[0] != "first" {
		t.Fatalf("undelivered messages %v", left)
	}
	if err := b.push("late"); err == nil {
		t.Fatal("a message after the agent finished was accepted")
	}
}
