// Package todos draws an agent's task list, as its last todo_write call
// set it: a compact list under the main conversation, and one line in a
// child's pane. It only draws; the root keeps the lists and cleans their
// text where the event enters the UI.
package todos

import (
	"fmt"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
)

// MaxRows bounds the list under the conversation, its title included;
// items beyond it are counted, not drawn.
const MaxRows = 7

// Open reports whether any item still needs work.
func Open(items []event.Todo) bool {
	for _, td := range items {
		if !td.Done() {
			return true
		}
	}
	return false
}

// Count is "1/3": items done of all.
func Count(items []event.Todo) string {
	done := 0
	for _, td := range items {
		if td.Done() {
			done++
		}
	}
	return fmt.Sprintf("%d/%d", done, len(items))
}

// Rows is how many lines Lines draws for items within max: the title and
// every item when they fit; else a window with a count, when there is
// room for at least one item beside it; else one summary line.
func Rows(items []event.Todo, max int) int {
	if len(items) == 0 || max <= 0 {
		return 0
	}
	rows := min(1+len(items), max, MaxRows)
	if rows < 1+len(items) && rows < 3 {
		return 1
	}
	return rows
}

// Lines draws the title and the items in Rows(items, max) lines, each
// cut to width. When they do not all fit, the window starts at the first
// item still open, so what is being done stays in sight, and the last row
// counts what was left out; with room for one line only, the title
// carries the item in progress.
func Lines(items []event.Todo, st *themes.Styles, width, max int) []string {
	rows := Rows(items, max)
	if rows == 0 {
		return nil
	}
	title := st.Tool.Name.Render("Todos ") + st.Tool.Summary.Render(Count(items)+" done")
	if rows == 1 {
		if i := firstOpen(items); i < len(items) {
			title += st.Tool.Summary.Render(" · ") + item(items[i], st)
		}
		return []string{fit(title, width)}
	}
	lines := []string{fit(title, width)}
	room, start := rows-1, 0
	if len(items) > room {
		room-- // the last row says how many are not shown
		start = min(firstOpen(items), len(items)-room)
	}
	for _, td := range items[start : start+room] {
		lines = append(lines, fit("  "+item(td, st), width))
	}
	if hidden := len(items) - room; hidden > 0 {
		lines = append(lines, fit(st.Tool.Summary.Render(fmt.Sprintf("  … %d more", hidden)), width))
	}
	return lines
}

// Line is a pane's one line for its child's list: the count and the item
// in progress ("☰ todos 1/3 · Fixing the bug").
func Line(items []event.Todo, st *themes.Styles, width int) string {
	if len(items) == 0 {
		return ""
	}
	line := st.Pane.Muted.Render("☰ todos " + Count(items))
	if i := firstOpen(items); i < len(items) {
		line += st.Pane.Muted.Render(" · ") + item(items[i], st)
	}
	return fit("  "+line, width)
}

// firstOpen is the index of the item in progress, else of the first item
// not done, else len(items).
func firstOpen(items []event.Todo) int {
	for i, td := range items {
		if td.Status == event.TodoInProgress {
			return i
		}
	}
	for i, td := range items {
		if !td.Done() {
			return i
		}
	}
	return len(items)
}

// item draws one item with its mark; an item in progress reads in its
// active form when it has one.
func item(td event.Todo, st *themes.Styles) string {
	text := td.Content
	var mark, body lipgloss.Style
	switch td.Status {
	case event.TodoInProgress:
		mark, body = st.Tool.Running, st.Tool.Name
		if td.ActiveForm != "" {
			text = td.ActiveForm
		}
	case event.TodoCompleted:
		mark, body = st.Tool.Done, st.Tool.Summary
	case event.TodoCancelled:
		mark, body = st.Tool.Summary, st.Tool.Summary.Strikethrough(true)
	default:
		mark, body = st.Tool.Summary, st.Tool.Title
	}
	if td.Priority == "high" {
		text += " (high)"
	}
	return mark.Render(statusMark(td.Status)+" ") + body.Render(text)
}

// statusMark is an item's mark by its status.
func statusMark(status event.TodoStatus) string {
	switch status {
	case event.TodoPending:
		return "○"
	case event.TodoInProgress:
		return "◐"
	case event.TodoCompleted:
		return "✓"
	case event.TodoCancelled:
		return "✗"
	}
	return ""
}

// fit cuts a line to width; zero or less leaves it whole.
func fit(line string, width int) string {
	if width <= 0 || ansi.StringWidth(line) <= width {
		return line
	}
	return ansi.Truncate(line, width, "…")
}

// Clean returns items with every text field passed through clean, for the
// root to apply its terminal cleaner once, where the event enters.
func Clean(items []event.Todo, clean func(string) string) []event.Todo {
	out := make([]event.Todo, len(items))
	for i, td := range items {
		td.Content, td.ActiveForm, td.Priority, td.ID = clean(td.Content), clean(td.ActiveForm), clean(td.Priority), clean(td.ID)
		out[i] = td
	}
	return out
}
