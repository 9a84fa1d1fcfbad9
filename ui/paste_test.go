package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// pastedLines is n lines "<word> line 01" … for pasting.
func pastedLines(word string, n int) string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("%s line %02d", word, i+1)
	}
	return strings.Join(lines, "\n")
}

// pasteText sends text as one bracketed paste.
func (d *driver) pasteText(text string) {
	d.t.Helper()
	d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text), Paste: true})
}

// Pastes that together hold more lines than the box shows leave the
// cursor's line (the last paste's last) in view, not the first rows with
// the cursor scrolled out of sight below them.
func TestPasteKeepsTheCursorLineInView(t *testing.T) {
	d := newDriver(t, 80, 30)
	d.pasteText(pastedLines("first", 6) + "\n")
	d.pasteText(pastedLines("pasted", 6))
	if screen := d.screen(); !strings.Contains(screen, "pasted line 06") {
		t.Fatalf("after the paste the cursor's line is hidden:\n%s", screen)
	}
	d.typeText("!")
	if screen := d.screen(); !strings.Contains(screen, "pasted line 06!") {
		t.Fatalf("typing after the paste:\n%s", screen)
	}
	d.checkFits()
}

// A paste larger than the box shows goes in as "[Pasted text +N lines]"
// and is sent whole, with what was typed around it; a second one of the
// same size gets its own token.
func TestLargePasteCollapsesAndExpandsOnSend(t *testing.T) {
	d := newDriver(t, 80, 30)
	log := pastedLines("log", 40)
	d.typeText("why does this fail? ")
	d.pasteText(log)
	screen := d.screen()
	if !strings.Contains(screen, "> why does this fail? [Pasted text +40 lines]") {
		t.Fatalf("the paste is not collapsed in the box:\n%s", screen)
	}
	if strings.Contains(screen, "log line 01") {
		t.Errorf("the pasted lines show in the box:\n%s", screen)
	}
	d.typeText(" and ")
	other := pastedLines("trace", 40)
	d.pasteText(other)
	if v := d.m.input.Value(); v != "why does this fail? [Pasted text +40 lines] and [Pasted text #2 +40 lines]" {
		t.Errorf("a second paste of the same size has no token of its own: %q", v)
	}
	d.keys("enter")
	want := "why does this fail? " + log + " and " + other
	if got := d.s.submitted; len(got) != 1 || got[0] != want {
		t.Errorf("sent %q,\nwant %q", got, want)
	}
	d.checkFits()
}

// Backspace at a token removes the whole paste; one long line is a
// large paste too; a short paste goes in as it is.
func TestPasteTokenEditing(t *testing.T) {
	d := newDriver(t, 80, 30)
	d.typeText("look: ")
	d.pasteText(strings.Repeat("x", 1500))
	if !strings.Contains(d.screen(), "look: [Pasted text +1 line]") {
		t.Fatalf("a long line is not collapsed:\n%s", d.screen())
	}
	d.keys("backspace")
	d.pasteText(pastedLines("log", 12) + "\n")
	if v := d.m.input.Value(); v != "look: [Pasted text +12 lines]" {
		t.Errorf("a paste ending in a newline is counted %q", v)
	}
	d.keys("backspace")
	if v := d.m.input.Value(); v != "look: " {
		t.Errorf("backspace after the token left %q", v)
	}
	d.pasteText("two\nlines")
	if v := d.m.input.Value(); v != "look: two\nlines" {
		t.Errorf("a short paste became %q", v)
	}
	d.keys("enter")
	if got := d.s.submitted; len(got) != 1 || got[0] != "look: two\nlines" {
		t.Errorf("sent %q", got)
	}
}

// A prompt the session refused comes back as it was in the box: the
// paste as its token, sent whole the next time.
func TestRefusedPromptKeepsItsPasteToken(t *testing.T) {
	d := newDriver(t, 80, 30)
	d.s.submitErr = fmt.Errorf("the session has ended")
	d.pasteText(pastedLines("log", 20))
	d.keys("enter")
	if v := d.m.input.Value(); v != "[Pasted text +20 lines]" {
		t.Fatalf("the refused prompt came back as %q", v)
	}
	d.s.submitErr = nil
	d.keys("enter")
	if got := d.s.submitted; len(got) != 1 || got[0] != pastedLines("log", 20) {
		t.Errorf("sent %q", got)
	}
}
