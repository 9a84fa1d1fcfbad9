package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// How long a status that nothing else ends stays up. A message the
// person must act on (an error) stays longer than an acknowledgement.
const (
	infoStatusTTL    = 8 * time.Second
	warningStatusTTL = 15 * time.Second
)

// expiry is when a status set now stops showing: acknowledgements,
// answers to commands and the end of a turn expire; what ends with a
// turn or a child (a queued prompt, a stop under way) stays until then.
func (m *Model) expiry(level statusLevel, until statusEnd) time.Time {
	if until == endTurn || until == endChild {
		return time.Time{}
	}
	if level == statusInfo {
		return m.now().Add(infoStatusTTL)
	}
	return m.now().Add(warningStatusTTL)
}

// expired reports whether the status's time is up.
func (st status) expired(now time.Time) bool {
	return !st.expires.IsZero() && !now.Before(st.expires)
}

// statusClock keeps the one animation clock running while a status
// waits to expire, so the line is redrawn without it in time; the clock
// stops by itself once nothing runs and nothing waits (see animate).
func (m *Model) statusClock() tea.Cmd {
	if m.status.expires.IsZero() {
		return nil
	}
	return m.startClock()
}

// expireStatus drops an expired status; it reports whether one still
// waits to expire.
func (m *Model) expireStatus() bool {
	if m.status.expired(m.now()) {
		m.status = status{}
	}
	return !m.status.expires.IsZero()
}

// newTurnStatus clears what the last turn left on the status line (an
// interruption, a notice, an answered card) as a new turn starts; a stop
// of a child still under way stays.
func (m *Model) newTurnStatus() {
	if m.status.until != endChild {
		m.status = status{}
	}
}
