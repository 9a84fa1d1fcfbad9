package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// A bracketed paste of more lines than the box shows leaves the cursor's
// line (the paste's last) in view, not the first rows with the cursor
// scrolled out of sight below them.
func TestPasteKeepsTheCursorLineInView(t *testing.T) {
	d := newDriver(t, 80, 30)
	var lines []string
	for i := range 12 {
		lines = append(lines, fmt.Sprintf("pasted line %02d", i+1))
	}
	d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Join(lines, "\n")), Paste: true})
	if screen := d.screen(); !strings.Contains(screen, "pasted line 12") {
		t.Fatalf("after the paste the cursor's line is hidden:\n%s", screen)
	}
	d.typeText("!")
	if screen := d.screen(); !strings.Contains(screen, "pasted line 12!") {
		t.Fatalf("typing after the paste:\n%s", screen)
	}
	d.checkFits()
}
