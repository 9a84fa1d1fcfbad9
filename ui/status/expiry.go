package status

import "time"

// How long a notice that nothing else ends stays up. A message the
// person must act on (an error) stays longer than an acknowledgement.
const (
	InfoTTL    = 8 * time.Second
	WarningTTL = 15 * time.Second
)

// expiry is when a notice set now stops showing: acknowledgements,
// answers to commands and the end of a turn expire; what ends with a
// turn or a child (a queued prompt, a stop under way) stays until then.
func (m *Model) expiry(level Level, until End) time.Time {
	switch {
	case until == Turn || until == Child:
		return time.Time{}
	case level == Info:
		return m.now.Add(InfoTTL)
	default:
		return m.now.Add(WarningTTL)
	}
}

// expired reports whether the notice's time is up.
func (n notice) expired(now time.Time) bool {
	return !n.expires.IsZero() && !now.Before(n.expires)
}

// Expire drops an expired notice; it reports whether one still waits
// to expire, so the root keeps its clock running until then.
func (m *Model) Expire() bool {
	if m.notice.expired(m.now) {
		m.Clear()
	}
	return m.Expiring()
}

// Expiring says whether the notice waits to expire.
func (m *Model) Expiring() bool { return !m.notice.expires.IsZero() }
