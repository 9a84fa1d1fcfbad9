package ui

import (
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// clock is the UI's one animation clock: the spinner, whose frame every
// running thing draws, and the time panes and notices measure against.
// It ticks only while something runs or a notice waits to expire.
type clock struct {
	spinner spinner.Model
	// frame is the spinner's frame drawn, redrawn only when it moves or
	// the theme changes: every message reads it, and drawing it costs
	// more than most messages.
	frame   string
	ticking bool
	now     func() time.Time
}

func newClock() clock {
	return clock{spinner: spinner.New(spinner.WithSpinner(spinner.Dot)), now: time.Now}
}

// start starts the tick unless it already runs.
func (c *clock) start() tea.Cmd {
	if c.ticking {
		return nil
	}
	c.ticking = true
	return c.spinner.Tick
}

// stop lets the tick end: the next one is not renewed.
func (c *clock) stop() { c.ticking = false }

// advance moves the spinner on a tick; the Cmd is the next tick.
func (c *clock) advance(msg spinner.TickMsg) tea.Cmd {
	var cmd tea.Cmd
	c.spinner, cmd = c.spinner.Update(msg)
	c.frame = c.spinner.View()
	return cmd
}

// restyle draws the frame in a new theme's style.
func (c *clock) restyle(style lipgloss.Style) {
	c.spinner.Style = style
	c.frame = c.spinner.View()
}
