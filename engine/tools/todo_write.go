package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/event"
)

func init() {
	register("todo_write", func(b build) (Tool, bool) { return TodoWrite{}, true })
}

// Bounds of a task list: it is a plan the person reads under the
// conversation, not a place to store text.
const (
	maxTodos     = 100
	maxTodoChars = 300
)

// TodoWrite is the todo_write tool: the agent's task list, replaced whole
// by each call. It changes nothing outside the session, so it runs
// without asking; the executor shows the list it returns to the person.
type TodoWrite struct{}

// todoArgs accepts Claude Code's TodoWrite shape (content, status,
// activeForm) and OpenCode's (content, status, priority, id).
type todoArgs struct {
	Todos []struct {
		ID         any    `json:"id"`
		Content    string `json:"content"`
		Status     string `json:"status"`
		ActiveForm string `json:"activeForm"`
		Priority   string `json:"priority"`
	} `json:"todos"`
}

// Name implements Tool.
func (TodoWrite) Name() string { return "todo_write" }

// ReadOnly implements Tool: the list lives in the session.
func (TodoWrite) ReadOnly() bool { return true }

// Description implements Tool.
func (TodoWrite) Description() string {
	return "Create and update your task list for the current work; the person sees it as you go. " +
		"Use it for work of three or more steps: list the steps, mark one in_progress before starting it and completed as soon as it is done. " +
		"Each call replaces the whole list, so always send every item. Skip it for a single quick step."
}

// Schema implements Tool.
func (TodoWrite) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","required":["todos"],"properties":{"todos":{"type":"array","description":"the whole list, in order",` +
		`"items":{"type":"object","required":["content","status"],"properties":{` +
		`"content":{"type":"string","description":"what to do, imperative (\"Run the tests\")"},` +
		`"status":{"type":"string","enum":["pending","in_progress","completed","cancelled"]},` +
		`"activeForm":{"type":"string","description":"present continuous, shown while in progress (\"Running the tests\")"},` +
		`"priority":{"type":"string","enum":["high","medium","low"]},` +
		`"id":{"type":"string"}}}}}}`)
}

// Title implements Tool: the name alone, since the result's summary
// ("2/5 done") follows it on the same line.
func (t TodoWrite) Title(json.RawMessage) string { return t.Name() }

// Run checks the list and returns it for the model to see what it set.
func (t TodoWrite) Run(_ context.Context, args json.RawMessage) (Result, error) {
	list, err := ParseTodos(args)
	if err != nil {
		return Result{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Task list updated (%s):", todoCount(list))
	for _, td := range list {
		fmt.Fprintf(&b, "\n%s %s", todoBox[td.Status], td.Content)
	}
	if len(list) == 0 {
		b.WriteString(" empty")
	}
	return Result{Output: b.String(), Summary: todoCount(list), Todos: list}, nil
}

// todoBox marks an item's status in the text the model gets back.
var todoBox = map[event.TodoStatus]string{
	event.TodoPending: "[ ]", event.TodoInProgress: "[>]", event.TodoCompleted: "[x]", event.TodoCancelled: "[-]",
}

// todoCount is "2/5 done".
func todoCount(list []event.Todo) string {
	done := 0
	for _, td := range list {
		if td.Done() {
			done++
		}
	}
	return fmt.Sprintf("%d/%d done", done, len(list))
}

// ParseTodos reads todo_write's arguments into the list, never nil (an
// empty list clears it). Every mistake is an error naming the item, so
// the model can send the list again.
func ParseTodos(args json.RawMessage) ([]event.Todo, error) {
	var a todoArgs
	if err := decodeArgs("todo_write", args, &a, "todos"); err != nil {
		return nil, err
	}
	if len(a.Todos) > maxTodos {
		return nil, fmt.Errorf("todo_write: %d items is too many; keep the list under %d", len(a.Todos), maxTodos)
	}
	list := make([]event.Todo, 0, len(a.Todos))
	for i, in := range a.Todos {
		td := event.Todo{
			Content: clipTodo(in.Content), ActiveForm: clipTodo(in.ActiveForm),
			Status: todoStatus(in.Status), Priority: clipTodo(in.Priority), ID: todoID(in.ID),
		}
		if td.Content == "" {
			return nil, fmt.Errorf("todo_write: item %d has no content", i+1)
		}
		if td.Status == "" {
			return nil, fmt.Errorf("todo_write: item %d has status %q; use pending, in_progress, completed or cancelled", i+1, in.Status)
		}
		list = append(list, td)
	}
	return list, nil
}

// todoStatus reads a status, forgiving case and "in-progress".
func todoStatus(s string) event.TodoStatus {
	s = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", "_")
	switch st := event.TodoStatus(s); st {
	case event.TodoPending, event.TodoInProgress, event.TodoCompleted, event.TodoCancelled:
		return st
	case "canceled":
		return event.TodoCancelled
	}
	return ""
}

// todoID takes an id sent as a string or a number.
func todoID(v any) string {
	switch id := v.(type) {
	case string:
		return clipTodo(id)
	case float64:
		return fmt.Sprint(id)
	}
	return ""
}

// clipTodo makes a field one bounded line.
func clipTodo(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > maxTodoChars {
		return string(r[:maxTodoChars-1]) + "…"
	}
	return s
}
