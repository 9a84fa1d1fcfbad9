// Package review is the overlay where the person reviews a worktree
// sub-agent's change: its files and hunks in a coloured diff, applied or
// skipped one by one or all at once, conflicts shown side by side and
// settled by a key. It talks to the engine only through Cmds that
// capture the Reviewer and the child's id, never the model.
package review

import (
	"context"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/overlay"
)

// Reviewer is what the review needs from the session.
type Reviewer interface {
	Review(id event.AgentID) (event.Review, error)
	ApplyChange(ctx context.Context, id event.AgentID, file, hunk int, resolution string) (*event.ReviewConflict, error)
	SkipChange(id event.AgentID, file, hunk int) error
}

// LoadedMsg carries the review as the engine holds it after an action,
// a conflict that action met, or why it failed. Done says the review has
// ended (nothing was left undecided).
type LoadedMsg struct {
	Agent    event.AgentID
	Review   event.Review
	Conflict *event.ReviewConflict
	// at is the item the conflict belongs to; all says the action was
	// "apply all", to carry on after the conflict is settled.
	at   item
	all  bool
	Done bool
	Err  error
}

// item is a file header (hunk -1) or one hunk: what the cursor is on.
type item struct{ file, hunk int }

// Model is one open review.
type Model struct {
	r      Reviewer
	id     event.AgentID
	review event.Review
	items  []item
	cursor int
	offset int
	// conflict is shown, and its keys take over, until it is settled.
	conflict    *event.ReviewConflict
	conflictAt  item
	conflictAll bool
	// confirming asks before D discards everything undecided.
	confirming bool
	// verifyShown shows the verify command's output instead of the diff.
	verifyShown bool
	busy        bool
	err         string

	keys          KeyMap
	help          help.Model
	styles        *themes.Styles
	width, height int
	// closed says what the person should know once the review closes;
	// done says it ended (nothing was left undecided).
	closed func(done bool) tea.Cmd
	// across opens the view across every pending change (nil: none).
	across func() tea.Cmd
}

// Open is the Cmd that loads a child's review and opens it over
// everything; failed says why it could not be loaded. closed runs when
// the review closes, in Update; across, when set, opens the view across
// every pending change in its place.
func Open(r Reviewer, id event.AgentID, styles *themes.Styles, closed func(done bool) tea.Cmd, failed func(error) tea.Msg, across func() tea.Cmd) tea.Cmd {
	return func() tea.Msg {
		rv, err := r.Review(id)
		if err != nil {
			return failed(err)
		}
		// Made here, off the Update goroutine: it reads the styles only
		// once SetSize gives it its size, in Update.
		m := New(r, LoadedMsg{Agent: id, Review: rv}, styles)
		m.closed, m.across = closed, across
		return overlay.Open{Layer: m}
	}
}

// New makes the review of a loaded change.
func New(r Reviewer, msg LoadedMsg, styles *themes.Styles) *Model {
	m := &Model{r: r, id: msg.Agent, keys: DefaultKeyMap(), help: help.New(), styles: styles,
		closed: func(bool) tea.Cmd { return nil }}
	m.load(msg.Review)
	return m
}

// Agent is the child whose change is under review.
func (m *Model) Agent() event.AgentID { return m.id }

// SetSize fits the review to the screen and follows the theme.
func (m *Model) SetSize(width, height int) {
	st := m.styles.Help
	m.help.Styles = help.Styles{ShortKey: st.Key, ShortDesc: st.Desc, ShortSeparator: st.Sep,
		FullKey: st.Key, FullDesc: st.Desc, FullSeparator: st.Sep}
	m.width, m.height = width, height
	m.help.Width = width
	m.scrollToCursor()
}

// Place is the whole screen.
func (m *Model) Place() overlay.Place { return overlay.Screen }

// Route gives the review every key.
func (m *Model) Route(tea.KeyMsg) overlay.Route { return overlay.Take }

// load takes a fresh copy of the review and keeps the cursor in range.
func (m *Model) load(rv event.Review) {
	m.review = rv
	m.items = m.items[:0]
	for fi, f := range rv.Files {
		m.items = append(m.items, item{fi, -1})
		for hi := range f.Hunks {
			m.items = append(m.items, item{fi, hi})
		}
	}
	m.cursor = min(m.cursor, max(len(m.items)-1, 0))
	m.scrollToCursor()
}

// current is the item under the cursor.
func (m *Model) current() (item, bool) {
	if m.cursor < 0 || m.cursor >= len(m.items) {
		return item{}, false
	}
	return m.items[m.cursor], true
}
