package ui

import (
	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/termtext"
	"github.com/seed-e4e525a6/baton/ui/todos"
)

// setTodos keeps the main agent's task list, cleaned once here.
func (m *Model) setTodos(ev event.TodosUpdated) {
	m.todos = todos.Clean(ev.Todos, termtext.Clean)
}

// todoRows is how many of room's lines the main agent's list takes under
// the conversation: none once every item is done and the turn is over,
// and never more than a third of room, so the conversation keeps most.
func (m *Model) todoRows(room int) int {
	if !m.busy && !todos.Open(m.todos) {
		return 0
	}
	return todos.Rows(m.todos, room/3)
}

// todoView draws the list in exactly rows lines.
func (m *Model) todoView(rows int) []string {
	if rows <= 0 {
		return nil
	}
	return todos.Lines(m.todos, m.styles, m.width, rows)
}
