package review

import (
	"context"
	"slices"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/overlay"
)

// Update handles a key or the outcome of one of its actions.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case LoadedMsg:
		if msg.Agent != m.id {
			return nil
		}
		return m.loaded(msg)
	case tea.KeyMsg:
		if m.conflict != nil {
			return m.conflictKey(msg)
		}
		return m.key(msg)
	}
	return nil
}

// key handles a key of the file and hunk list.
func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	if m.confirming {
		// Only y discards; any other key keeps the change and does
		// nothing else.
		m.confirming = false
		if key.Matches(msg, k.ConfirmDiscard) && !msg.Paste && !m.busy {
			return m.skip(item{-1, -1})
		}
		return nil
	}
	if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 {
		m.burst(msg.Runes)
		return nil
	}
	at, ok := m.current()
	switch {
	case key.Matches(msg, k.Close):
		return m.close(false)
	case key.Matches(msg, k.AllPending) && m.across != nil:
		return tea.Batch(overlay.Hide(m), m.across())
	case key.Matches(msg, k.VerifyOutput) && m.review.Verify != nil:
		m.verifyShown, m.offset = !m.verifyShown, 0
	case m.verifyShown && (key.Matches(msg, k.Up) || key.Matches(msg, k.Down)):
		m.offset = max(m.offset+map[bool]int{true: -1, false: 1}[key.Matches(msg, k.Up)], 0)
	case key.Matches(msg, k.Up):
		m.move(-1)
	case key.Matches(msg, k.Down):
		m.move(1)
	case key.Matches(msg, k.PageUp):
		m.move(-max(m.bodyHeight()/2, 1))
	case key.Matches(msg, k.Down2):
		m.move(max(m.bodyHeight()/2, 1))
	case m.busy:
		// One action at a time: the next waits for the engine's answer.
	case key.Matches(msg, k.Apply) && ok:
		return m.apply(at, "", false)
	case key.Matches(msg, k.Skip) && ok:
		return m.skip(at)
	case key.Matches(msg, k.ApplyAll):
		return m.apply(item{-1, -1}, "", true)
	case key.Matches(msg, k.DiscardAll):
		m.confirming = true
	}
	return nil
}

// burst handles keys read in one go (j typed twice faster than the
// terminal is read): each j or k moves the cursor. A burst never applies
// or discards anything: those take one deliberate key each.
func (m *Model) burst(runes []rune) {
	for _, r := range runes {
		one := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}
		switch {
		case key.Matches(one, m.keys.Up):
			m.move(-1)
		case key.Matches(one, m.keys.Down):
			m.move(1)
		}
	}
}

// conflictKey settles the conflict shown.
func (m *Model) conflictKey(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	res := ""
	switch {
	case key.Matches(msg, k.KeepMine):
		res = "mine"
	case key.Matches(msg, k.TakeChild):
		res = "child"
	case key.Matches(msg, k.LeaveMarkers):
		res = "markers"
	case key.Matches(msg, k.CancelConflict):
		m.conflict = nil
		return nil
	default:
		return nil
	}
	at, all := m.conflictAt, m.conflictAll
	m.conflict = nil
	cmd := m.apply(at, res, false)
	if !all {
		return cmd
	}
	// After the file in conflict, "apply all" carries on with the rest.
	return tea.Sequence(cmd, m.apply(item{-1, -1}, "", true))
}

// move moves the cursor by delta items.
func (m *Model) move(delta int) {
	m.cursor = min(max(m.cursor+delta, 0), max(len(m.items)-1, 0))
	m.scrollToCursor()
}

// apply is the Cmd that applies at (a file, a hunk, or everything).
func (m *Model) apply(at item, resolution string, all bool) tea.Cmd {
	m.busy, m.err = true, ""
	r, id := m.r, m.id
	return func() tea.Msg {
		conflict, err := r.ApplyChange(context.Background(), id, at.file, at.hunk, resolution)
		return reload(r, id, LoadedMsg{Agent: id, Conflict: conflict, at: at, all: all, Err: err})
	}
}

// skip is the Cmd that skips at (everything undecided: discard).
func (m *Model) skip(at item) tea.Cmd {
	m.busy, m.err = true, ""
	r, id := m.r, m.id
	return func() tea.Msg {
		err := r.SkipChange(id, at.file, at.hunk)
		return reload(r, id, LoadedMsg{Agent: id, at: at, Err: err})
	}
}

// reload fetches the review after an action; one that is gone has ended.
func reload(r Reviewer, id event.AgentID, msg LoadedMsg) LoadedMsg {
	rv, err := r.Review(id)
	switch {
	case err != nil && msg.Err == nil:
		msg.Done = true
	case err == nil:
		msg.Review = rv
	}
	return msg
}

// loaded takes an action's outcome.
func (m *Model) loaded(msg LoadedMsg) tea.Cmd {
	m.busy = false
	if msg.Done {
		return m.close(true)
	}
	if msg.Review.Agent != "" {
		m.load(msg.Review)
	}
	if msg.Err != nil {
		m.err = msg.Err.Error()
	}
	switch {
	case msg.Conflict != nil:
		m.conflict, m.conflictAll = msg.Conflict, msg.all
		m.conflictAt = m.itemOf(msg.Conflict.Path, msg.at)
	case msg.Err == nil && !msg.all && msg.at.file >= 0:
		m.advancePast(msg.at)
	}
	return nil
}

// close takes the review off the screen; done says it ended.
func (m *Model) close(done bool) tea.Cmd {
	return tea.Batch(overlay.Hide(m), m.closed(done))
}

// advancePast moves the cursor to the first undecided file or hunk after
// at, the item just decided, so y and n go through a change one item at
// a time; with nothing undecided after it, to the first undecided one.
func (m *Model) advancePast(at item) {
	from := slices.Index(m.items, at)
	if from < 0 {
		return
	}
	for step := 1; step < len(m.items); step++ {
		i := (from + step) % len(m.items)
		if m.undecided(m.items[i]) {
			m.cursor = i
			m.scrollToCursor()
			return
		}
	}
}

// undecided reports whether anything under it waits for a decision: any
// hunk of a file, or the hunk itself.
func (m *Model) undecided(it item) bool {
	f := m.review.Files[it.file]
	if it.hunk < 0 {
		return f.Pending()
	}
	return f.Hunks[it.hunk].Decision == event.DecisionPending
}

// itemOf is the item a conflict belongs to: the hunk acted on, or the
// whole file when the action covered more.
func (m *Model) itemOf(path string, at item) item {
	for fi, f := range m.review.Files {
		if f.Path == path {
			if at.file == fi {
				return at
			}
			return item{fi, -1}
		}
	}
	return at
}
