package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

func TestTodoWriteShapes(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		want    []event.Todo
		wantErr string
	}{
		{name: "claude code", args: `{"todos":[{"content":"Run the tests","status":"in_progress","activeForm":"Running the tests"},{"content":"Fix lint","status":"pending","activeForm":"Fixing lint"}]}`,
			want: []event.Todo{{Content: "Run the tests", ActiveForm: "Running the tests", Status: event.TodoInProgress}, {Content: "Fix lint", ActiveForm: "Fixing lint", Status: event.TodoPending}}},
		{name: "opencode", args: `{"todos":[{"id":"1","content":"Read code","status":"completed","priority":"high"},{"id":2,"content":"Drop it","status":"cancelled","priority":"low"}]}`,
			want: []event.Todo{{ID: "1", Content: "Read code", Status: event.TodoCompleted, Priority: "high"}, {ID: "2", Content: "Drop it", Status: event.TodoCancelled, Priority: "low"}}},
		{name: "forgiving status", args: `{"todos":[{"content":"a","status":"In-Progress"},{"content":"b","status":"canceled"}]}`,
			want: []event.Todo{{Content: "a", Status: event.TodoInProgress}, {Content: "b", Status: event.TodoCancelled}}},
		{name: "one line", args: `{"todos":[{"content":"two\nlines\u001b[31m","status":"pending"}]}`,
			want: []event.Todo{{Content: "two lines\x1b[31m", Status: event.TodoPending}}},
		{name: "empty clears", args: `{"todos":[]}`, want: []event.Todo{}},
		{name: "missing todos", args: `{}`, wantErr: `missing required field "todos"`},
		{name: "no content", args: `{"todos":[{"content":" ","status":"pending"}]}`, wantErr: "item 1 has no content"},
		{name: "bad status", args: `{"todos":[{"content":"a","status":"done"}]}`, wantErr: `item 1 has status "done"`},
		{name: "not a list", args: `{"todos":"a"}`, wantErr: "invalid arguments for todo_write"},
		{name: "too many", args: `{"todos":[` + strings.Repeat(`{"content":"a","status":"pending"},`, maxTodos) + `{"content":"a","status":"pending"}]}`, wantErr: "too many"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := TodoWrite{}.Run(context.Background(), json.RawMessage(tc.args))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(res.Todos)
			want, _ := json.Marshal(tc.want)
			if string(got) != string(want) || res.Todos == nil {
				t.Fatalf("todos = %s, want %s", got, want)
			}
		})
	}
}

func TestTodoWriteOutput(t *testing.T) {
	args := json.RawMessage(`{"todos":[{"content":"Read","status":"completed"},{"content":"Edit","status":"in_progress"},{"content":"Test","status":"pending"}]}`)
	res, err := TodoWrite{}.Run(context.Background(), args)
	if err != nil {
		t.Fatal(err)
	}
	want := "Task list updated (1/3 done):\n[x] Read\n[>] Edit\n[ ] Test"
	if res.Output != want || res.Summary != "1/3 done" {
		t.Fatalf("output %q summary %q", res.Output, res.Summary)
	}
	if got := (TodoWrite{}).Title(args); got != "todo_write" { // the summary follows it

		t.Fatalf("title %q", got)
	}
	if !(TodoWrite{}).ReadOnly() {
		t.Fatal("todo_write must not ask for approval")
	}
	long := json.RawMessage(`{"todos":[{"content":"` + strings.Repeat("é", 2*maxTodoChars) + `","status":"pending"}]}`)
	res, err = TodoWrite{}.Run(context.Background(), long)
	if err != nil || len([]rune(res.Todos[0].Content)) != maxTodoChars {
		t.Fatalf("long content not clipped to %d: %v", maxTodoChars, err)
	}
}
