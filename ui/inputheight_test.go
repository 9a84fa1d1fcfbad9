package ui

import (
	"strings"
	"testing"
)

func TestInputShowsEveryLineAfterNewline(t *testing.T) {
	d := newDriver(t, 80, 24)
	d.typeText("first line")
	d.keys("ctrl+j")
	d.typeText("second")
	screen := d.screen()
	if !strings.Contains(screen, "> first line") || !strings.Contains(screen, "second") {
		t.Errorf("a line of the input is hidden:\n%s", screen)
	}
	d.checkFits()
}

func TestInputGrowsWithWrappedRows(t *testing.T) {
	d := newDriver(t, 60, 24)
	long := strings.Repeat("word ", 30) + "tail"
	d.typeText(long)
	screen := d.screen()
	if !strings.Contains(screen, "> word word") || !strings.Contains(screen, "tail") {
		t.Errorf("the long line shows only part of itself:\n%s", screen)
	}
	if h := d.m.input.ta.Height(); h < 3 {
		t.Errorf("the box is %d rows for a line that wraps to 3", h)
	}
	d.checkFits()
}

func TestInputScrollsInsideAtItsMaximum(t *testing.T) {
	d := newDriver(t, 80, 30)
	for i := range 12 {
		if i > 0 {
			d.keys("ctrl+j")
		}
		d.typeText("line" + string(rune('a'+i)))
	}
	if h := d.m.input.ta.Height(); h != maxInputLines {
		t.Errorf("box height %d, want %d", h, maxInputLines)
	}
	if screen := d.screen(); !strings.Contains(screen, "linel") {
		t.Errorf("the line being typed is not visible:\n%s", screen)
	}
	d.checkFits()
}
