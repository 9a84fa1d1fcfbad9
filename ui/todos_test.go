package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// threeTodos is a list in Claude Code's shape: one done, one in progress,
// one pending.
var threeTodos = []event.Todo{
	{Content: "Read the code", ActiveForm: "Reading the code", Status: event.TodoCompleted},
	{Content: "Fix the bug", ActiveForm: "Fixing the bug", Status: event.TodoInProgress},
	{Content: "Run \x1b[31mtests", Status: event.TodoPending},
}

func TestMainTodoListShowsUnderTheConversation(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "fix it"},
		event.ToolStarted{Meta: mainMeta, CallID: "c1", Name: "todo_write", Title: "todo_write 1/3 done"},
		event.TodosUpdated{Meta: mainMeta, Todos: threeTodos},
		event.ToolFinished{Meta: mainMeta, CallID: "c1", Name: "todo_write", Summary: "1/3 done"})
	screen := d.screen()
	for _, want := range []string{"Todos 1/3 done", "  ✓ Read the code", "  ◐ Fixing the bug", "  ○ Run tests"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("screen lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(d.m.View(), "\x1b[31mtests") {
		t.Fatal("an escape sequence from the model reached the screen")
	}
	lines := strings.Split(screen, "\n")
	title := indexOf(lines, "Todos 1/3 done")
	if title < 0 || !strings.Contains(lines[title-1], "todo_write") && indexOf(lines[:title], "todo_write") < 0 {
		t.Fatalf("the list is not under the conversation:\n%s", screen)
	}
	d.checkFits()

	done := append([]event.Todo(nil), threeTodos...)
	done[1].Status, done[2].Status = event.TodoCompleted, event.TodoCompleted
	d.emit(event.TodosUpdated{Meta: mainMeta, Todos: done})
	if !strings.Contains(d.screen(), "Todos 3/3 done") {
		t.Fatalf("the finished list should show while the turn runs:\n%s", d.screen())
	}
	d.emit(event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	if strings.Contains(d.screen(), "Todos") {
		t.Fatalf("a finished list should go once the turn ends:\n%s", d.screen())
	}
}

func TestLongTodoListKeepsTheCurrentItemInSight(t *testing.T) {
	d := newDriver(t, 60, 30)
	var list []event.Todo
	for i := 1; i <= 20; i++ {
		status := event.TodoCompleted
		if i == 14 {
			status = event.TodoInProgress
		} else if i > 14 {
			status = event.TodoPending
		}
		list = append(list, event.Todo{Content: fmt.Sprintf("step %d of the long plan", i), Status: status})
	}
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "big job"}, event.TodosUpdated{Meta: mainMeta, Todos: list})
	screen := d.screen()
	for _, want := range []string{"Todos 13/20 done", "◐ step 14 of the long plan", "○ step 15", "… "} {
		if !strings.Contains(screen, want) {
			t.Fatalf("screen lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "step 1 of") {
		t.Fatalf("the window should start at the current item:\n%s", screen)
	}
	d.checkFits()
	for _, size := range [][2]int{{20, 8}, {40, 10}, {100, 12}} {
		d.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		d.checkFits()
	}
}

func TestChildTodoListShowsInItsPane(t *testing.T) {
	d := newDriver(t, 100, 30)
	d.spawn(explore)
	d.emit(event.TodosUpdated{Meta: explore.meta(2), Todos: threeTodos})
	screen := d.screen()
	if !strings.Contains(screen, "☰ todos 1/3 · ◐ Fixing the bug") {
		t.Fatalf("the pane lacks its todo line:\n%s", screen)
	}
	if strings.Contains(screen, "Todos 1/3") {
		t.Fatalf("a child's list must not show as the main agent's:\n%s", screen)
	}
	d.checkFits()
}

func TestResumedTodoListShowsAgainAndClearForgetsIt(t *testing.T) {
	s := newFakeSession()
	s.history = []event.Event{
		event.TurnStarted{Meta: mainMeta, Prompt: "fix it"},
		event.TodosUpdated{Meta: mainMeta, Todos: threeTodos[:1]},
		event.TodosUpdated{Meta: mainMeta, Todos: threeTodos},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted},
	}
	d := newDriverFor(t, s, Options{Workspace: "/w", Theme: "dark"}, 80, 24)
	if !strings.Contains(d.screen(), "Todos 1/3 done") {
		t.Fatalf("the last list should show after resume:\n%s", d.screen())
	}
	d.typeText("/clear")
	d.keys("enter")
	if strings.Contains(d.screen(), "Todos") {
		t.Fatalf("/clear should drop the list:\n%s", d.screen())
	}
}

// indexOf is the first line containing sub, or -1.
func indexOf(lines []string, sub string) int {
	for i, l := range lines {
		if strings.Contains(l, sub) {
			return i
		}
	}
	return -1
}
