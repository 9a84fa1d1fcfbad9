package input

// walking says whether up/down walk the history: the box is empty, or
// still holds the entry the walk put there.
func (m *Model) walking() bool {
	if m.Empty() {
		return true
	}
	return m.browse < len(m.history) && m.Value() == m.history[m.browse]
}

// older and newer step through the history; past the newest the box is
// empty again.
func (m *Model) older() {
	if m.Empty() {
		m.browse = len(m.history)
	}
	if m.browse > 0 {
		m.browse--
		m.Set(m.history[m.browse])
	}
}

func (m *Model) newer() {
	if m.browse >= len(m.history) {
		return
	}
	m.browse++
	if m.browse == len(m.history) {
		m.Set("")
		return
	}
	m.Set(m.history[m.browse])
}
