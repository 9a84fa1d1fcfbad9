package ui

import (
	"io"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/approval"
)

// Notification thresholds: a card waits this long before baton calls the
// person back, and a turn this long is worth a call when it ends.
const (
	notifyAfter  = 10 * time.Second
	longTurn     = 30 * time.Second
	titleWaiting = "baton · approval waiting"
	titleDone    = "baton · turn finished"
	titleIdle    = "baton"
)

// notifier calls the person back to the terminal: a bell, the window
// title, or both (the default); "off" does neither.
type notifier struct {
	mode      string // "bell", "title", "off", or "" for both
	bell      io.Writer
	focused   bool // the terminal has focus (as far as it reports)
	titled    bool // the title says something waits
	turnStart time.Time
}

// card calls the person for the active card: at once when the terminal
// is not focused (away), else once it has waited notifyAfter. The
// animation clock, which runs while a card waits (a turn is running),
// does the timing, so no timer outlives the program.
func (n *notifier) card(cards *approval.Model, now time.Time, away bool) tea.Cmd {
	cards.SetNow(now)
	if !cards.Call(away, notifyAfter) {
		return nil
	}
	return n.call(titleWaiting)
}

// focus tracks focus reports: losing focus with a card waiting calls at
// once; coming back clears the title.
func (n *notifier) focus(msg tea.Msg, cardWaits bool) tea.Cmd {
	_, n.focused = msg.(tea.FocusMsg)
	if n.focused {
		return n.clear()
	}
	if cardWaits {
		return n.call(titleWaiting)
	}
	return nil
}

// turnEnded calls when a turn that took longer than longTurn ends.
func (n *notifier) turnEnded(ev event.TurnEnded) tea.Cmd {
	start := n.turnStart
	n.turnStart = time.Time{}
	if start.IsZero() || ev.Time.Sub(start) <= longTurn {
		return nil
	}
	return n.call(titleDone)
}

// call rings the bell and sets the title, as configured.
func (n *notifier) call(title string) tea.Cmd {
	var cmds []tea.Cmd
	if (n.mode == "" || n.mode == "bell") && n.bell != nil {
		w := n.bell
		cmds = append(cmds, func() tea.Msg {
			_, _ = w.Write([]byte("\a")) // a lost bell is no error worth showing
			return nil
		})
	}
	if n.mode == "" || n.mode == "title" {
		n.titled = true
		cmds = append(cmds, setWindowTitle(title))
	}
	return tea.Batch(cmds...)
}

// clear puts the title back once nothing waits for the person.
func (n *notifier) clear() tea.Cmd {
	if !n.titled {
		return nil
	}
	n.titled = false
	return setWindowTitle(titleIdle)
}

// windowTitleMsg asks for the terminal window's title; the screen sets it.
type windowTitleMsg string

// setWindowTitle sets the terminal window's title.
func setWindowTitle(title string) tea.Cmd {
	return func() tea.Msg { return windowTitleMsg(title) }
}
