package ui

import (
	"github.com/seed-e4e525a6/baton/ui/agents"
	"github.com/seed-e4e525a6/baton/ui/approval"
	"github.com/seed-e4e525a6/baton/ui/command"
	"github.com/seed-e4e525a6/baton/ui/conversation"
	"github.com/seed-e4e525a6/baton/ui/header"
	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/mode"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/status"
	"github.com/seed-e4e525a6/baton/ui/termtext"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
)

// Model is the root of the UI: it holds size, focus, the overlay mode and
// the session's state, routes events by agent and keys by mode, and
// leaves drawing and editing to the components.
type Model struct {
	session Session
	wait    tea.Cmd // waits for the next events; stateless, so made once
	opts    Options
	header  *header.Model
	footer  *footerCache
	fitted  *fitCache
	keys    KeyMap
	styles  *themes.Styles

	// The components are pointers: Bubble Tea copies the Model on every
	// message, and the textarea and help alone are some 15 KB.
	conv   *conversation.Model
	agents *agents.Area
	// commands are the slash commands, built-in and custom.
	commands *command.Registry
	input    *input.Model
	// layers are the overlays and cards over the conversation, the one
	// with the keys on top; the cards are one of them while any waits.
	layers *overlay.Stack
	help   *help.Model
	clock  clock
	mode   *mode.Model // the agent mode shift+tab cycles

	width, height int
	approvals     *approval.Model
	todos         []event.Todo // the main agent's task list

	busy      bool
	status    *status.Model
	quitArmed bool
	frame     *frame // the last view, rebuilt at most once per frame

	notify notifier
}

// New builds the UI for a session. An unknown theme falls back to the
// default and says so in the status line.
func New(s Session, opts Options) Model {
	m := Model{
		session: s, wait: waitForEvent(s.Events()), opts: opts, keys: DefaultKeyMap(),
		clock: newClock(), frame: &frame{}, footer: &footerCache{}, fitted: &fitCache{},
	}
	palette, ok := themes.ByName(opts.Theme)
	if !ok {
		palette = themes.Default(darkBackground())
	}
	h := help.New()
	m.help = &h
	m.layers = &overlay.Stack{}
	m.status = status.New(nil, opts.Notices) // cmd puts the agent-file warnings among them
	m.styles = &themes.Styles{}
	m.header = header.New(m.styles, header.Options{Folder: termtext.Path(opts.Workspace), Demo: opts.Demo, Mode: opts.Mode, Sandbox: opts.Sandbox,
		Model: s.Model(), Window: opts.ContextWindow, WindowOf: opts.ContextWindowOf})
	m.conv = conversation.New(m.keys.Scroll, m.styles, opts.Demo)
	m.agents = newAgents(m.keys, s, m.styles, m.status, m.layers, m.conv)
	var commands *command.Registry // the palette captures the registry, never the model
	m.input = input.New(m.keys.KeyMap, func(value string) []input.Candidate { return commands.Complete(value) })
	m.input.SetFiles(s.MentionPaths)
	m.mode = mode.New(s.SetAgentMode, m.header, m.status)
	commands = newCommands(&m)
	m.commands = commands
	cardClock := opts.cardClock
	if cardClock == nil {
		cardClock = tick
	}
	m.approvals = approval.New(m.keys.Cards, m.keys.KeyMap, cardClock, s, m.status)
	m.applyTheme(palette)
	m.status.Tick(m.clock.frame, m.clock.now())
	m.notify = notifier{mode: opts.Notify, bell: opts.Bell, focused: true}
	if opts.Theme != "" && !ok {
		m.status.Set(status.Warning, "unknown theme "+opts.Theme+"; using "+palette.Name)
	}
	m.replay(s.History())
	m.input.SetHistory(promptHistory(opts.History, s.History()))
	return m
}

// newAgents makes the agents area with the UI's keys, its shared styles,
// status line and layers, and the conversation's drawing, so a child's
// transcript looks like the conversation.
func newAgents(k KeyMap, s Session, styles *themes.Styles, said *status.Model, layers *overlay.Stack, conv *conversation.Model) *agents.Area {
	return agents.New(agents.Config{
		Keys: k.Panes, Line: k.KeyMap, Styles: styles, Session: s, Status: said, Layers: layers,
		Transcript: overlay.TranscriptKeys{Back: k.Panes.Back, Up: k.Cards.CardUp, Down: k.Cards.CardDown, PageUp: k.Scroll.PageUp,
			PageDown: k.Scroll.PageDown, Top: k.Scroll.Top, Bottom: k.Scroll.Bottom, Expand: k.Scroll.Expand, Stop: k.Panes.Stop, Help: k.Help},
		Draw:     conv.DrawEntry,
		Expanded: conv.Expanded,
		After:    tick,
	})
}

// Init starts listening to the session.
func (m Model) Init() tea.Cmd { return m.wait }

// Update dispatches a message to its handler.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	return m, cmd
}

// update is Update in place. The running program calls it through its
// pointer (see onScreen): handing Bubble Tea the Model by value boxed a
// copy of it into an interface on every message, garbage the collector
// then had to sweep several times a frame.
func (m *Model) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if from, ok := msg.(fromSession); ok {
		if from.ch != m.session.Events() {
			return nil // a session /resume switched away from
		}
		msg = from.msg
	}
	switch msg.(type) {
	case eventsMsg, spinner.TickMsg, frameMsg: // drawn at their frame (see frame.later)
	default:
		m.frame.touch()
		if m.frame.unfitted { // the handlers below read the sizes
			m.fitBody()
		}
	}
	m.status.Tick(m.clock.frame, m.clock.now()) // the line reads the clock of this message
	switch msg := msg.(type) {
	case frameMsg:
		m.frame.due(msg)
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
	case tea.KeyMsg:
		cmd = m.handleKey(msg)
	case tea.MouseMsg:
		cmd = m.handleMouse(msg)
	case eventsMsg:
		cmd = m.handleEvents(msg)
	case sessionEndedMsg:
		cmd = tea.Quit
	case callFailedMsg:
		m.callFailed(msg)
	case status.Said:
		m.status.Set(msg.Level, msg.Text)
	case jobNotice:
		m.status.SetTransient(status.Warning, string(msg), status.Key, "")
	case overlay.Open:
		m.layers.Push(msg.Layer)
	case overlay.Close:
		m.layers.Remove(msg.Layer)
	case command.Result:
		cmd = m.commandDone(msg)
	case mode.SetMsg:
		cmd = m.mode.Update(msg)
	case resumedMsg:
		return m.resumed(msg)
	case agents.ArmMsg:
		cmd = m.agents.Quiet(msg)
	case spinner.TickMsg:
		cmd = m.animate(msg)
	case tea.FocusMsg, tea.BlurMsg:
		cmd = m.notify.focus(msg, m.approvals.Len() > 0)
	default:
		cmd = tea.Batch(m.layers.Update(msg), m.input.Update(msg))
	}
	cmd = tea.Batch(cmd, m.settle(), m.agents.Arm())
	if m.status.Expiring() {
		// The clock runs while a notice waits to expire, so the line is
		// redrawn without it in time; it stops by itself once nothing
		// runs and nothing waits (see animate).
		cmd = tea.Batch(cmd, m.clock.start())
	}
	m.fit()
	return cmd
}

// setBusy records whether the main agent has the input (a turn, or a
// /compact), and shows it on the working line.
func (m *Model) setBusy(busy bool) {
	m.busy = busy
	m.status.SetWorking(busy)
}

// applyTheme switches every style to a palette.
func (m *Model) applyTheme(p themes.Palette) {
	styles := themes.New(themes.ForProfile(p, lipgloss.ColorProfile()))
	*m.styles = styles // panes and layers hold the pointer and follow the theme
	m.conv.SetStyles(m.styles)
	m.input.SetStyles(m.styles)
	m.approvals.SetStyles(m.styles)
	m.layers.Update(overlay.Restyle{})
	m.clock.restyle(m.styles.Status.Busy)
	m.status.SetStyles(m.styles)
	m.help.Styles = help.Styles{
		ShortKey: styles.Help.Key, ShortDesc: styles.Help.Desc, ShortSeparator: styles.Help.Sep,
		FullKey: styles.Help.Key, FullDesc: styles.Help.Desc, FullSeparator: styles.Help.Sep,
		Ellipsis: styles.Help.Sep,
	}
}

// animate advances the spinner and the live panes' clocks while
// something runs, the main turn or any child, or a status waits to
// expire; once idle the clock is left to stop.
func (m *Model) animate(msg spinner.TickMsg) tea.Cmd {
	waiting := m.status.Expire()
	if !m.busy && !m.agents.Running() && !waiting {
		m.clock.stop()
		return nil
	}
	cmd := m.clock.advance(msg)
	m.agents.Tick(m.clock.now(), m.clock.frame)
	m.status.Tick(m.clock.frame, m.clock.now())
	m.frame.beat(m.clock.now())
	return tea.Batch(cmd, m.notify.card(m.approvals, m.clock.now(), false))
}
