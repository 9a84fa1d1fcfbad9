// Package trustcard asks, before baton's main screen starts, whether to
// trust a folder whose project files want more than an untrusted
// repository may have (another endpoint, models, agents with write tools,
// raised limits), or whether to start in the home folder or the root at
// all. It is a small Bubble Tea program of its own so the question is
// settled before any session exists.
package trustcard

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/trust"
	"github.com/seed-e4e525a6/baton/themes"
)

// Choice is the person's answer.
type Choice int

// The answers. Quit is the zero value: a card that ends without an answer
// (a cancelled context, a closed terminal) never trusts anything.
const (
	Quit Choice = iota
	Trust
	RunWithout
)

// armDelay is how long the card ignores its answer keys after it is first
// drawn, so keys typed ahead (before baton started, or just as the card
// appeared) cannot trust a folder nobody has read about.
const armDelay = 400 * time.Millisecond

// KeyMap is every key the card answers to.
type KeyMap struct {
	Trust, Without, Quit, Up, Down key.Binding
}

// DefaultKeyMap is the card's standard keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Trust:   key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "trust and remember")),
		Without: key.NewBinding(key.WithKeys("r", "n"), key.WithHelp("r", "run without them")),
		Quit:    key.NewBinding(key.WithKeys("q", "esc", "ctrl+c"), key.WithHelp("q", "quit")),
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑", "scroll")),
		Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", "scroll")),
	}
}

// Model is the card as a Bubble Tea model.
type Model struct {
	req           trust.Request
	keys          KeyMap
	styles        themes.CardStyles
	width, height int
	scroll        int
	armed         bool
	choice        Choice
	done          bool
}

// armMsg ends the typing guard.
type armMsg struct{}

// New returns the card for req, drawn with styles.
// New is the card for req, which comes from a repository: the card
// cleans every line of terminal escapes as it draws it.
func New(req trust.Request, styles themes.Styles) Model {
	return Model{req: req, keys: DefaultKeyMap(), styles: styles.Card, width: 80, height: 24}
}

// Init starts the typing guard's clock.
func (m Model) Init() tea.Cmd {
	return tea.Tick(armDelay, func(time.Time) tea.Msg { return armMsg{} })
}

// Update answers keys, the guard's end and window sizes.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case armMsg:
		m.armed = true
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.scroll = min(m.scroll, m.maxScroll())
	case tea.KeyMsg:
		return m.key(msg)
	}
	return m, nil
}

// key handles one key press. Quitting works at once; trusting and
// running without the settings only once the card is armed.
func (m Model) key(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch {
	case key.Matches(msg, m.keys.Quit):
		return m.finish(Quit)
	case key.Matches(msg, m.keys.Up):
		m.scroll = max(m.scroll-1, 0)
	case key.Matches(msg, m.keys.Down):
		m.scroll = min(m.scroll+1, m.maxScroll())
	case !m.armed:
	case key.Matches(msg, m.keys.Trust):
		return m.finish(Trust)
	case key.Matches(msg, m.keys.Without):
		return m.finish(RunWithout)
	}
	return m, nil
}

func (m Model) finish(c Choice) (tea.Model, tea.Cmd) {
	m.choice, m.done = c, true
	return m, tea.Quit
}

// Choice is the answer given, Quit until one is.
func (m Model) Choice() Choice { return m.choice }

// Done reports whether the person has answered.
func (m Model) Done() bool { return m.done }
