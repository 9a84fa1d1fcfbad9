package ui

import (
	"context"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/seed-e4e525a6/baton/engine/wake"
)

// clock is the UI's one animation clock: the spinner, whose frame every
// running thing draws, and the time panes and notices measure against.
// It ticks only while something runs or a notice waits to expire.
type clock struct {
	// spinner names the clock's ticks (its ID) and holds the frames it
	// turns through; the clock counts the frames itself, each drawn once
	// per theme: styling one on every beat cost more than the beat.
	spinner spinner.Model
	styled  []string // the spinner's frames, drawn in its style
	at      int      // the frame shown
	// frame is the spinner's frame drawn: every message reads it.
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
	return c.spinner.Tick // the first step at once, then on the beat
}

// stop lets the tick end: the next one is not renewed.
func (c *clock) stop() { c.ticking = false }

// advance moves the spinner on a tick; the Cmd is the next tick, on the
// beat (the spinner's own clock is dropped).
func (c *clock) advance(msg spinner.TickMsg) tea.Cmd {
	if (msg.ID <= 0 || msg.ID == c.spinner.ID()) && len(c.styled) > 0 { // another spinner's tick moves nothing
		c.at = (c.at + 1) % len(c.styled)
		c.frame = c.styled[c.at]
	}
	return beat(c.spinner.ID()).next
}

// beatInterval is the clock's period: three frames, so a beat falls on a
// frame boundary (see frameTick) and on the boundary at which streams are
// read (llm.Gather), and the process wakes once for all of them.
const beatInterval = 3 * FrameInterval

// beat is the tick of the spinner with this id.
type beat int

// next waits for the next boundary of beatInterval.
func (b beat) next() tea.Msg {
	at := wake.Boundary(time.Now(), beatInterval)
	wake.Until(context.Background(), at)
	return spinner.TickMsg{Time: at, ID: int(b)}
}

// restyle draws the frame in a new theme's style.
func (c *clock) restyle(style lipgloss.Style) {
	c.spinner.Style = style
	c.styled = make([]string, len(c.spinner.Spinner.Frames))
	for i, f := range c.spinner.Spinner.Frames {
		c.styled[i] = style.Render(f)
	}
	c.at = min(c.at, len(c.styled)-1)
	c.frame = c.styled[c.at]
}
