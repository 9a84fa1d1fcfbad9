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
