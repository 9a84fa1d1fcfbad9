package todos

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
)

func TestLinesFitTheirRows(t *testing.T) {
	st := themes.New(themes.Dark())
	var items []event.Todo
	for i := range 10 {
		status := event.TodoCompleted
		switch {
		case i == 6:
			status = event.TodoInProgress
		case i > 6:
			status = event.TodoPending
		}
		items = append(items, event.Todo{Content: fmt.Sprintf("item %d", i), ActiveForm: fmt.Sprintf("doing %d", i), Status: status})
	}
	tests := []struct {
		max   int
		want  []string
		width int
	}{
		{max: 0},
		{max: 1, want: []string{"Todos 6/10 done · ◐ doing 6"}},
		{max: 2, want: []string{"Todos 6/10 done · ◐ doing 6"}},
		{max: 4, want: []string{"Todos 6/10 done", "  ◐ doing 6", "  ○ item 7", "  … 8 more"}},
		{max: 40, want: []string{"Todos 6/10 done", "  ✓ item 5", "  ◐ doing 6", "  ○ item 7", "  ○ item 8", "  ○ item 9", "  … 5 more"}},
		{max: 4, width: 12, want: []string{"Todos 6/10 …", "  ◐ doing 6", "  ○ item 7", "  … 8 more"}},
	}
	for _, tc := range tests {
		got := Lines(items, &st, tc.width, tc.max)
		for i := range got {
			got[i] = ansi.Strip(got[i])
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != Rows(items, tc.max) {
			t.Errorf("max %d width %d: %q (Rows %d), want %q", tc.max, tc.width, got, Rows(items, tc.max), tc.want)
		}
	}
	short := items[:2]
	if got := Lines(short, &st, 0, 40); len(got) != 3 || ansi.Strip(got[2]) != "  ✓ item 1" {
		t.Errorf("a short list shows whole: %q", got)
	}
	if Open(items[:6]) || !Open(items) {
		t.Error("Open")
	}
}

// A pane's line counts the list and names the item in progress in its
// active form, else the first not done, else none; it fits its width,
// and an empty list has no line.
func TestLineNamesTheItemUnderWay(t *testing.T) {
	st := themes.New(themes.Dark())
	items := []event.Todo{
		{Content: "Read the code", Status: event.TodoCompleted},
		{Content: "Fix the bug", ActiveForm: "Fixing the bug", Status: event.TodoInProgress, Priority: "high"},
		{Content: "Write a test", Status: event.TodoPending},
	}
	if got := ansi.Strip(Line(items, &st, 80)); got != "  ☰ todos 1/3 · ◐ Fixing the bug (high)" {
		t.Errorf("in progress: %q", got)
	}
	items[1].Status = event.TodoCancelled
	if got := ansi.Strip(Line(items, &st, 80)); got != "  ☰ todos 2/3 · ○ Write a test" {
		t.Errorf("none in progress: %q", got)
	}
	items[2].Status = event.TodoCompleted
	if got := ansi.Strip(Line(items, &st, 80)); got != "  ☰ todos 3/3" {
		t.Errorf("all done: %q", got)
	}
	if got := Line(items, &st, 10); ansi.StringWidth(got) > 10 {
		t.Errorf("wider than 10: %q", ansi.Strip(got))
	}
	if Line(nil, &st, 80) != "" {
		t.Error("an empty list has a line")
	}
}

// Clean passes every text field of every item through the cleaner, and
// leaves the caller's items as they were.
func TestCleanReachesEveryField(t *testing.T) {
	items := []event.Todo{{ID: "1\x1b", Content: "a\x1b", ActiveForm: "b\x1b", Priority: "c\x1b", Status: event.TodoPending}}
	got := Clean(items, func(s string) string { return strings.ReplaceAll(s, "\x1b", "") })
	if got[0] != (event.Todo{ID: "1", Content: "a", ActiveForm: "b", Priority: "c", Status: event.TodoPending}) || items[0].Content != "a\x1b" {
		t.Errorf("cleaned %+v, original %+v", got[0], items[0])
	}
}
