package review

import (
	"context"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/overlay"
)

// Merger is what the view across every pending change needs from the
// session: a merge preview of the chosen changes, its verification in a
// scratch worktree, and applying it.
type Merger interface {
	PreviewFanIn(ctx context.Context, chosen []event.AgentID) (event.FanIn, error)
	VerifyFanIn(ctx context.Context, id string) (event.FanIn, error)
	ApplyFanIn(ctx context.Context, id string, unverified bool) (event.FanInApplied, error)
}

// FanInMsg carries a merge preview, its verification or what applying
// it did, or why one of them failed, to the view it belongs to.
type FanInMsg struct {
	view    *Across
	Fan     event.FanIn
	Applied *event.FanInApplied
	Err     error
	// verified says the message ends the verification of preview id.
	verified bool
	id       string
}

// startVerify asks a view just opened to verify its merge.
type startVerify struct{ view *Across }

// Across is the view across every change waiting for review: which
// files each touches, where the chosen ones overlap or conflict when
// merged together, their merged result's verification, and the key that
// applies them all in the order that merges cleanly.
type Across struct {
	r      Merger
	fan    event.FanIn
	cursor int
	offset int
	// verifying says the merged result's verification runs; confirming
	// that A was pressed once on a merge that is not verified.
	verifying   bool
	confirming  bool
	outputShown bool
	busy        bool
	err         string

	keys          AcrossKeyMap
	help          help.Model
	styles        *themes.Styles
	width, height int
	// closed runs when the view closes, with what was applied (nil:
	// nothing).
	closed func(*event.FanInApplied) tea.Cmd
}

// OpenAcross is the Cmd that previews the merge of every pending change
// and opens the view over everything, then verifies the merge; failed
// says why it could not be previewed.
func OpenAcross(r Merger, styles *themes.Styles, closed func(*event.FanInApplied) tea.Cmd, failed func(error) tea.Msg) tea.Cmd {
	m := NewAcross(r, event.FanIn{}, styles)
	if closed != nil {
		m.closed = closed
	}
	load := func() tea.Msg {
		fan, err := r.PreviewFanIn(context.Background(), nil)
		if err != nil {
			return failed(err)
		}
		// Filled here, off the Update goroutine, before the layer is
		// open: nothing else reads it yet.
		m.fan = fan
		return overlay.Open{Layer: m}
	}
	return tea.Sequence(load, func() tea.Msg { return startVerify{m} })
}

// NewAcross makes the view of a merge preview.
func NewAcross(r Merger, fan event.FanIn, styles *themes.Styles) *Across {
	return &Across{r: r, fan: fan, keys: DefaultAcrossKeyMap(), help: help.New(), styles: styles,
		closed: func(*event.FanInApplied) tea.Cmd { return nil }}
}

// SetSize fits the view to the screen and follows the theme.
func (m *Across) SetSize(width, height int) {
	st := m.styles.Help
	m.help.Styles = help.Styles{ShortKey: st.Key, ShortDesc: st.Desc, ShortSeparator: st.Sep,
		FullKey: st.Key, FullDesc: st.Desc, FullSeparator: st.Sep}
	m.width, m.height = width, height
	m.help.Width = width
}

// Place is the whole screen.
func (m *Across) Place() overlay.Place { return overlay.Screen }

// Route gives the view every key.
func (m *Across) Route(tea.KeyMsg) overlay.Route { return overlay.Take }

// Update handles a key or the outcome of one of its actions.
func (m *Across) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case startVerify:
		if msg.view == m {
			return m.verify()
		}
	case FanInMsg:
		if msg.view == m {
			return m.loaded(msg)
		}
	case tea.KeyMsg:
		return m.key(msg)
	}
	return nil
}

// key handles one key.
func (m *Across) key(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	if m.confirming {
		// Only a second A applies the unverified merge; any other key
		// keeps the tree as it is and does nothing else.
		m.confirming = false
		if key.Matches(msg, k.Apply) && !msg.Paste && !m.busy {
			return m.apply(true)
		}
		return nil
	}
	if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 {
		return nil // a burst decides nothing
	}
	switch {
	case key.Matches(msg, k.Close):
		return tea.Batch(overlay.Hide(m), m.closed(nil))
	case key.Matches(msg, k.Output) && m.fan.Verify != nil:
		m.outputShown, m.offset = !m.outputShown, 0
	case key.Matches(msg, k.Up):
		m.move(-1)
	case key.Matches(msg, k.Down):
		m.move(1)
	case m.busy:
	case key.Matches(msg, k.Choose) && len(m.fan.Changes) > 0:
		return m.choose(m.cursor)
	case key.Matches(msg, k.Apply):
		return m.applyKey()
	}
	return nil
}

// move moves the cursor over the changes, or scrolls the output.
func (m *Across) move(delta int) {
	if m.outputShown {
		m.offset = max(m.offset+delta, 0)
		return
	}
	m.cursor = min(max(m.cursor+delta, 0), max(len(m.fan.Changes)-1, 0))
}

// applyKey applies a verified merge at once; any other asks for a
// second A, saying why it is not verified.
func (m *Across) applyKey() tea.Cmd {
	switch {
	case len(m.fan.Order) == 0:
		m.err = "no chosen change merges cleanly: choose changes with space"
		return nil
	case m.fan.Verified() && !m.verifying:
		return m.apply(false)
	}
	m.confirming = true
	return nil
}

// choose takes the change at i in or out of the merge and previews it
// again.
func (m *Across) choose(i int) tea.Cmd {
	chosen := []event.AgentID{}
	for j, c := range m.fan.Changes {
		if c.Chosen != (j == i) {
			chosen = append(chosen, c.Agent)
		}
	}
	m.busy, m.err, m.outputShown = true, "", false
	r, view := m.r, m
	return func() tea.Msg {
		fan, err := r.PreviewFanIn(context.Background(), chosen)
		return FanInMsg{view: view, Fan: fan, Err: err}
	}
}

// verify is the Cmd that verifies the merge previewed, when it can be.
func (m *Across) verify() tea.Cmd {
	if len(m.fan.Commands) == 0 || len(m.fan.Order) == 0 {
		return nil
	}
	m.verifying = true
	r, view, id := m.r, m, m.fan.ID
	return func() tea.Msg {
		fan, err := r.VerifyFanIn(context.Background(), id)
		return FanInMsg{view: view, Fan: fan, Err: err, verified: true, id: id}
	}
}

// apply is the Cmd that applies the merge previewed.
func (m *Across) apply(unverified bool) tea.Cmd {
	m.busy, m.err = true, ""
	r, view, id := m.r, m, m.fan.ID
	return func() tea.Msg {
		applied, err := r.ApplyFanIn(context.Background(), id, unverified)
		if err != nil {
			return FanInMsg{view: view, Err: err}
		}
		return FanInMsg{view: view, Applied: &applied}
	}
}

// loaded takes an action's outcome: a preview, which is verified next, a
// verification of the preview shown, or an applied merge, which closes
// the view.
func (m *Across) loaded(msg FanInMsg) tea.Cmd {
	switch {
	case msg.Applied != nil:
		m.busy = false
		return tea.Batch(overlay.Hide(m), m.closed(msg.Applied))
	case msg.verified:
		if msg.id != m.fan.ID {
			return nil // the verification of a preview no longer shown
		}
		m.verifying = false
		if msg.Err != nil {
			m.err = msg.Err.Error()
			return nil
		}
		m.fan.Verify = msg.Fan.Verify
		return nil
	}
	m.busy = false
	if msg.Err != nil {
		m.err = msg.Err.Error()
		return nil
	}
	m.fan, m.verifying, m.confirming = msg.Fan, false, false
	m.cursor = min(m.cursor, max(len(m.fan.Changes)-1, 0))
	return m.verify()
}
