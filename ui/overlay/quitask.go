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
// It offers what baton can do: stay, quit and stop them (each is
// recorded as interrupted, for --continue to list and resume), or, when
// any runs where it can outlive baton, quit and leave those running for
// --continue to re-attach.
type QuitAsk struct {
	running, detachable int
	width, height       int
	styles              *themes.Styles
	quit                func(detach bool) tea.Cmd
	// Keys are the question's keys.
	Keys QuitAskKeys
}

// QuitAskKeys are the keys the question takes.
type QuitAskKeys struct {
	// Quit quits and stops the children; a further ctrl+c means it too.
	Quit key.Binding
	// Detach quits and leaves the children that can outlive baton running.
	Detach key.Binding
	// Stay closes the question and carries on.
	Stay key.Binding
}

// NewQuitAsk asks about running children, detachable of which can
// outlive baton; the answer to quit runs quit (detach says whether those
// are left running).
func NewQuitAsk(running, detachable int, styles *themes.Styles, quit func(detach bool) tea.Cmd) *QuitAsk {
	return &QuitAsk{running: running, detachable: detachable, styles: styles, quit: quit, Keys: QuitAskKeys{
		Quit:   key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit and stop "+them(running))),
		Detach: key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "detach "+them(detachable))),
		Stay:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stay")),
	}}
}

// them is the pronoun for n children.
func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// Place is under the conversation, as a card.
func (q *QuitAsk) Place() Place { return Body }

// Route gives the question every key: a stray one answers nothing.
func (q *QuitAsk) Route(tea.KeyMsg) Route { return Take }

// Update takes a key: q quits and stops the children, d (when any can
// outlive baton) quits and leaves those running, esc stays. Other keys
// are ignored, so nothing typed by chance answers it.
func (q *QuitAsk) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	switch {
	case key.Matches(k, q.Keys.Quit):
		return q.Choose(false)
	case q.detachable > 0 && key.Matches(k, q.Keys.Detach):
		return q.Choose(true)
	case key.Matches(k, q.Keys.Stay):
		return Hide(q)
	}
	return nil
}

// Choose answers the question: quit, leaving the detachable children
// running when detach is set.
func (q *QuitAsk) Choose(detach bool) tea.Cmd {
	return tea.Batch(Hide(q), q.quit(detach && q.detachable > 0))
}

// Quit answers ctrl+c on the open question: it means quit, stopping
// what runs (see Quitter).
func (q *QuitAsk) Quit() tea.Cmd { return q.Choose(false) }

// SetSize fits the question to the terminal's width.
func (q *QuitAsk) SetSize(width, height int) { q.width, q.height = width, height }

// Text is the question in words.
func (q *QuitAsk) Text() string {
	text := fmt.Sprintf("%d sub-agents still running — q quit and stop them", q.running)
	if q.running == 1 {
		text = "1 sub-agent still running — q quit and stop it"
	}
	switch {
	case q.detachable == q.running:
		text += ", d detach " + them(q.running)
	case q.detachable > 0:
		text += fmt.Sprintf(", d detach the %d that can outlive baton", q.detachable)
	}
	return text + ", esc stay"
}

// View draws the question, wrapped to the width, on as many lines as it
// needs and its place allows.
func (q *QuitAsk) View() string {
	text := lipgloss.NewStyle().Width(max(q.width, 1)).Render(q.Text())
	lines := strings.Split(text, "\n")
	if q.height > 0 && len(lines) > q.height {
		lines = lines[len(lines)-q.height:]
	}
	for i, line := range lines {
		lines[i] = q.styles.Status.Warning.Render(strings.TrimRight(line, " "))
	}
	return strings.Join(lines, "\n")
}

// ShortHelp is the question's keys for the footer.
func (q *QuitAsk) ShortHelp() []key.Binding {
	if q.detachable > 0 {
		return []key.Binding{q.Keys.Quit, q.Keys.Detach, q.Keys.Stay}
	}
	return []key.Binding{q.Keys.Quit, q.Keys.Stay}
}

// FullHelp is ShortHelp: the question has no other keys.
func (q *QuitAsk) FullHelp() []KeyGroup { return nil }
