package ui

import (
	"reflect"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// A line starting with ! runs in the shell through the session, not as a
// prompt; its output shows in the conversation; one typed while a turn
// runs waits for the turn like a prompt.
func TestBangRunsAShellCommand(t *testing.T) {
	d := newDriver(t, 100, 30)
	d.typeText("!go test ./...")
	d.keys("enter")
	if !reflect.DeepEqual(d.s.shell, []string{"go test ./..."}) || len(d.s.submitted) != 0 {
		t.Fatalf("ran %q, sent %q", d.s.shell, d.s.submitted)
	}
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "!go test ./..."},
		event.ToolStarted{Meta: mainMeta, CallID: "person-1", Name: "run_command", Title: "$ go test ./..."},
		event.ToolFinished{Meta: mainMeta, CallID: "person-1", Name: "run_command", Summary: "exit 1", Output: "--- FAIL: TestX\nFAIL\tpkg\t0.1s"},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	screen := d.screen()
	for _, want := range []string{"!go test ./...", "$ go test ./... (exit 1)", "--- FAIL: TestX"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the conversation lacks %q:\n%s", want, screen)
		}
	}
	d.typeText("fix it")
	d.keys("enter")
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "fix it"})
	d.typeText("!git diff")
	d.keys("enter")
	if len(d.s.shell) != 1 {
		t.Fatalf("a !command typed during a turn ran at once: %q", d.s.shell)
	}
	d.emit(event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	if !reflect.DeepEqual(d.s.shell, []string{"go test ./...", "git diff"}) {
		t.Errorf("after the turn ran %q", d.s.shell)
	}
	d.checkFits()
}
