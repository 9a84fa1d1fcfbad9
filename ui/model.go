package ui

import (
	"time"

	"github.com/seed-e4e525a6/baton/ui/approval"
	"github.com/seed-e4e525a6/baton/ui/input"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/status"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/overlay/modelpick"
	changes "github.com/seed-e4e525a6/baton/ui/review"
)

// layer is what, if anything, sits above the conversation and takes the
// keys. There is one mode at a time, never a flag per dialog.
type layer int

const (
	overlayNone       layer = iota
	overlayApproval         // the cards: the first takes the keys once armed
	overlayMessage          // a line whose text goes into a running child
	overlayTranscript       // a child's whole transcript, full screen
	overlayReview           // a worktree child's change under review, full screen
	overlaySearch           // ctrl+r's search of the prompt history, in the input's place
	overlayModel            // /model's picker, under the conversation
	overlayQuit             // quitting while sub-agents run asks first, under the conversation
)

// Model is the root of the UI: it holds size, focus, the overlay mode and
// the session's state, routes events by agent and keys by mode, and
// leaves drawing and editing to the components.
type Model struct {
	session Session
	wait    tea.Cmd // waits for the next events; stateless, so made once
	opts    Options
	folder  string // the workspace as the header shows it
	header  *headerCache
	footer  *footerCache
	keys    KeyMap
	styles  *themes.Styles

	// The components are pointers: Bubble Tea copies the Model on every
	// message, and the textarea and help alone are some 15 KB.
	conv    *conversation
	agents  *agents
	input   *input.Model
	message *input.Line         // a message for a running child
	viewer  *overlay.Transcript // the open transcript
	review  *changes.Model      // the open review of a child's change
	picker  *modelpick.Picker
	quitAsk *overlay.QuitAsk // the open quit question
	help    *help.Model
	spinner spinner.Model
	// spin is the spinner's frame drawn, redrawn only when it moves or the
	// theme changes: every message reads it, and drawing it costs more
	// than most messages.
	spin string
	now  func() time.Time // the clock panes measure against

	width, height int
	overlay       layer
	behind        layer         // the view the cards interrupted, back once they are answered
	focus         event.AgentID // the focused pane's child; "" is the input
	target        event.AgentID // the child the message line is for
	approvals     *approval.Model
	todos         []event.Todo // the main agent's task list

	model         string
	contextWindow int64
	busy          bool
	ticking       bool        // the spinner's clock runs
	inRequest     bool        // between StepStarted and MessageDone
	contextUsed   int         // tokens of the main agent's last request
	pastUsage     event.Usage // turns that ended
	turnUsage     event.Usage // the running turn so far
	status        *status.Model
	quitArmed     bool
	frame         *frame // the last view, rebuilt at most once per frame

	notify notifier
}

// New builds the UI for a session. An unknown theme falls back to the
// default and says so in the status line.
func New(s Session, opts Options) Model {
	m := Model{
		session: s, wait: waitForEvent(s.Events()), opts: opts, keys: DefaultKeyMap(),
		spinner: spinner.New(spinner.WithSpinner(spinner.Dot)), now: time.Now, frame: &frame{}, header: &headerCache{}, footer: &footerCache{},
		model: s.Model(), contextWindow: opts.ContextWindow, folder: displayPath(opts.Workspace),
	}
	if m.contextWindow <= 0 {
		m.contextWindow = m.windowOf(m.model)
	}
	palette, ok := themes.ByName(opts.Theme)
	if !ok {
		palette = themes.Default(darkBackground())
	}
	h := help.New()
	m.help = &h
	m.agents = newAgents(nil)
	m.opts.Commands = cleanCommands(opts.Commands)
	m.input = input.New(m.keys.KeyMap, commandPalette(m.agents, m.opts.Commands))
	m.message = input.NewLine("message", "sent before its next step")
	m.approvals = approval.New(m.keys.Cards, m.keys.KeyMap, opts.Workspace, tick)
	m.status = status.New(nil, opts.Notices) // cmd puts the agent-file warnings among them
	m.applyTheme(palette)
	m.status.Tick(m.spin, m.now())
	m.notify = notifier{mode: opts.Notify, bell: opts.Bell, focused: true}
	if opts.Theme != "" && !ok {
		m.status.Set(status.Warning, "unknown theme "+opts.Theme+"; using "+palette.Name)
	}
	m.replay(s.History())
	m.seedHistory(opts.History, s.History())
	return m
}

// Init starts listening to the session.
func (m Model) Init() tea.Cmd { return m.wait }

// Update dispatches a message to its handler.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	if _, ok := msg.(eventsMsg); !ok {
		m.frame.touch()
		if m.frame.unfitted { // the handlers below read the sizes
			m.fitBody()
		}
	}
	m.status.Tick(m.spin, m.now()) // the line reads the clock of this message
	switch msg := msg.(type) {
	case frameMsg:
		m.frame.due()
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
	case tea.KeyMsg:
		cmd = m.handleKey(msg)
	case tea.MouseMsg:
		m.handleMouse(msg)
	case eventsMsg:
		cmd = m.handleEvents(msg)
	case sessionEndedMsg:
		cmd = tea.Quit
	case callFailedMsg:
		m.callFailed(msg)
	case clearedMsg:
		m.cleared()
	case logMsg:
		m.showLog(msg)
	case infoMsg:
		m.showInfo(msg)
	case changes.LoadedMsg:
		cmd = m.reviewLoaded(msg)
	case changes.ClosedMsg:
		m.reviewClosed(msg)
	case copiedMsg:
		m.copied(msg)
	case spinner.TickMsg:
		cmd = m.animate(msg)
	case approval.ArmMsg:
		cmd = m.cardUpdate(msg)
	case tea.FocusMsg, tea.BlurMsg:
		cmd = m.terminalFocus(msg)
	case permissionsMsg:
		m.showPermissions(msg)
	default:
		cmd = m.input.Update(msg)
	}
	m.fit()
	return m, tea.Batch(cmd, m.statusClock())
}

// statusClock keeps the one animation clock running while a notice
// waits to expire, so the line is redrawn without it in time; the clock
// stops by itself once nothing runs and nothing waits (see animate).
func (m *Model) statusClock() tea.Cmd {
	if !m.status.Expiring() {
		return nil
	}
	return m.startClock()
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
	if m.styles == nil {
		m.styles = &styles
	} else {
		*m.styles = styles // panes hold the pointer and follow the theme
	}
	if m.conv == nil {
		m.conv = newConversation(m.styles)
	} else {
		m.conv.setStyles(m.styles)
	}
	m.agents.styles = m.styles // panes hold the pointer and follow the theme
	m.input.SetStyles(m.styles)
	m.approvals.SetStyles(m.styles)
	if m.viewer != nil {
		m.viewer.Restyle()
	}
	m.message.SetStyles(m.styles)
	m.spinner.Style = m.styles.Status.Busy
	m.spin = m.spinner.View()
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
	if !m.busy && !m.agents.running() && !waiting {
		m.ticking = false
		return nil
	}
	var cmd tea.Cmd
	m.spinner, cmd = m.spinner.Update(msg)
	m.spin = m.spinner.View()
	m.agents.tick(m.now(), m.spin)
	m.status.Tick(m.spin, m.now())
	return tea.Batch(cmd, m.notifyOverdue())
}

// startClock starts the spinner unless it already runs.
func (m *Model) startClock() tea.Cmd {
	if m.ticking {
		return nil
	}
	m.ticking = true
	return m.spinner.Tick
}
