package event

// TodoStatus is where one item of an agent's task list stands.
type TodoStatus string

// The statuses of a task-list item: Claude Code's three plus OpenCode's
// cancelled.
const (
	TodoPending    TodoStatus = "pending"
	TodoInProgress TodoStatus = "in_progress"
	TodoCompleted  TodoStatus = "completed"
	TodoCancelled  TodoStatus = "cancelled"
)

// Todo is one item of an agent's task list. ActiveForm is Claude Code's
// present-tense wording shown while the item is in progress ("Running
// tests"); ID and Priority are OpenCode's and only shown when set.
type Todo struct {
	ID         string     `json:"id,omitempty"`
	Content    string     `json:"content"`
	ActiveForm string     `json:"active_form,omitempty"`
	Status     TodoStatus `json:"status"`
	Priority   string     `json:"priority,omitempty"`
}

// Done reports whether the item needs no more work.
func (t Todo) Done() bool { return t.Status == TodoCompleted || t.Status == TodoCancelled }

// TodosUpdated carries an agent's whole task list after a todo_write call:
// each call replaces the list, so the last event is the list. It is
// recorded in the transcript, so a resumed session shows the list again.
type TodosUpdated struct {
	Meta
	Todos []Todo `json:"todos"`
}

// Kind implements Event.
func (TodosUpdated) Kind() string { return "todos" }
