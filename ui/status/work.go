package status

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// SetWorking shows or hides the working line: the main agent has the
// input from the moment a prompt is sent until its turn (or a /compact)
// ends.
func (m *Model) SetWorking(on bool) {
	m.working = on
	if !on {
		m.step = event.StepStarted{}
		m.turn.Stop()
	}
}

// Working says whether the working line shows.
func (m *Model) Working() bool { return m.working }

// Compacting names the work while the history is summarised; start
// starts the clock too, for a /compact that holds the input like a turn.
func (m *Model) Compacting(on, start bool) {
	m.word = "working"
	if on {
		m.word = "compacting"
	}
	if start {
		m.turn.Start(m.now)
	}
}

// Update takes the main agent's events that the line reports: the turn's
// start and end, its steps, tokens, notices and retries.
func (m *Model) Update(msg tea.Msg) {
	switch ev := msg.(type) {
	case event.TurnStarted:
		if m.notice.until != Child { // a stop of a child under way stays
			m.Clear() // what the last turn left would mislead
		}
		m.working = true
		m.turn.Start(m.now)
	case event.StepStarted:
		m.step = ev
	case event.MessageDone:
		m.retryAnswered() // perhaps with tool calls only
	case event.UsageReported:
		m.turn.Counted(ev.Request.CompletionTokens)
	case event.Notice:
		m.Set(Warning, ev.Text)
	case event.Retrying:
		m.notice = notice{level: Warning, until: Turn, retry: &ev}
	case event.TextDelta:
		m.retryAnswered()
		m.turn.Received(m.now, ev.Text)
	case event.ReasoningDelta:
		m.retryAnswered()
		m.turn.Received(m.now, ev.Text)
	case event.TurnEnded:
		m.SetWorking(false)
		m.Settle(Turn)
		if ev.Status == event.StatusInterrupted {
			m.Set(Warning, "interrupted")
		}
	}
}

// retryAnswered clears the countdown once the retried request answers.
func (m *Model) retryAnswered() {
	if m.notice.retry != nil {
		m.Clear()
	}
}
