package overlay

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/seed-e4e525a6/baton/themes"
)

// QuitAsk is the question asked when the person quits while sub-agents
// still run: quitting stops them, so it is never done without asking.
// It offers only what baton can do: staying, or quitting and stopping
// them (each is recorded as interrupted, for --continue to list).
type QuitAsk struct {
	running int
	width   int
	styles  *themes.Styles
	// Keys are the question's keys.
	Keys QuitAskKeys
}

// QuitAskKeys are the keys the question takes.
type QuitAskKeys struct {
	// Quit quits and stops the children; a further ctrl+c means it too.
	Quit key.Binding
	// Stay closes the question and carries on.
	Stay key.Binding
}

// NewQuitAsk asks about running children.
func NewQuitAsk(running int, styles *themes.Styles) *QuitAsk {
	return &QuitAsk{running: running, styles: styles, Keys: QuitAskKeys{
		Quit: key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit and stop them")),
		Stay: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stay")),
	}}
}

// Update takes a key: quit says the person chose to quit, done that the
// question is answered either way. Other keys are ignored, so nothing
// typed by chance answers it.
func (q *QuitAsk) Update(msg tea.KeyMsg) (quit, done bool) {
	switch {
	case key.Matches(msg, q.Keys.Quit):
		return true, true
	case key.Matches(msg, q.Keys.Stay):
		return false, true
	}
	return false, false
}

// SetSize fits the question to the terminal's width.
func (q *QuitAsk) SetSize(width int) { q.width = width }

// Text is the question in words.
func (q *QuitAsk) Text() string {
	if q.running == 1 {
		return "1 sub-agent still running — q quit and stop it, esc stay"
	}
	return fmt.Sprintf("%d sub-agents still running — q quit and stop them, esc stay", q.running)
}

// View draws the question, wrapped to the width, on as many lines as it
// needs.
func (q *QuitAsk) View() []string {
	text := lipgloss.NewStyle().Width(max(q.width, 1)).Render(q.Text())
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		lines[i] = q.styles.Status.Warning.Render(strings.TrimRight(line, " "))
	}
	return lines
}

// ShortHelp is the question's keys for the footer.
func (q *QuitAsk) ShortHelp() []key.Binding { return []key.Binding{q.Keys.Quit, q.Keys.Stay} }
