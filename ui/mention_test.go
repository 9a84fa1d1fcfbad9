package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// Typing @ lists the workspace's paths (walked when the mention starts);
// what follows narrows them, names first; tab puts the chosen path in the
// box, a file closed with a space, a folder open for more; enter with the
// popup open completes rather than sends.
func TestMentionCompletion(t *testing.T) {
	d := newDriver(t, 100, 30)
	d.s.paths = []string{"cmd/", "cmd/baton/", "cmd/baton/main.go", "docs/", "docs/my notes.md", "go.mod", "internal/mainloop.go", "main.go"}
	d.typeText("explain @")
	if d.s.walks != 1 {
		t.Fatalf("starting a mention walked the workspace %d times", d.s.walks)
	}
	screen := d.screen()
	for _, want := range []string{"@cmd/", "@go.mod", "@main.go", "folder", "file"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the popup lacks %q:\n%s", want, screen)
		}
	}
	d.typeText("main")
	lines := popupLines(d)
	if len(lines) != 3 || !strings.Contains(lines[0], "@main.go") || !strings.Contains(lines[1], "@cmd/baton/main.go") || !strings.Contains(lines[2], "@internal/mainloop.go") {
		t.Errorf("@main offers, in order:\n%s", strings.Join(lines, "\n"))
	}
	if d.s.walks != 1 {
		t.Errorf("typing on in the mention walked again (%d)", d.s.walks)
	}
	d.keys("down", "tab")
	if v := d.m.input.Value(); v != "explain @cmd/baton/main.go " {
		t.Errorf("tab put %q in the box", v)
	}
	d.typeText("and @do")
	d.keys("enter")
	if v := d.m.input.Value(); v != "explain @cmd/baton/main.go and @docs/" || len(d.s.submitted) != 0 {
		t.Errorf("enter on the popup: box %q, sent %q", v, d.s.submitted)
	}
	d.typeText("my")
	d.keys("tab")
	if v := d.m.input.Value(); v != `explain @cmd/baton/main.go and @"docs/my notes.md" ` {
		t.Errorf("a path with a space went in as %q", v)
	}
	d.keys("enter")
	if got := d.s.submitted; len(got) != 1 || got[0] != `explain @cmd/baton/main.go and @"docs/my notes.md"` {
		t.Errorf("sent %q", got)
	}
	if d.s.walks != 2 {
		t.Errorf("the second mention did not walk the workspace afresh (%d walks)", d.s.walks)
	}
	d.checkFits()
}

// An @ inside a word (an address) or followed by nothing that matches
// offers nothing, and esc closes the popup.
func TestMentionCompletionStaysOutOfTheWay(t *testing.T) {
	d := newDriver(t, 100, 30)
	d.s.paths = []string{"main.go", "mal\x1b[2J\x1b]0;pwned\a.go", "bad\xffname.go"}
	d.typeText("mail me@example.com")
	if lines := popupLines(d); len(lines) != 0 {
		t.Errorf("an address opened the popup:\n%s", strings.Join(lines, "\n"))
	}
	d.typeText(" @zzz")
	if d.m.input.PopupOpen() {
		t.Error("a mention matching nothing opened the popup")
	}
	d.keys("backspace", "backspace", "backspace")
	if !d.m.input.PopupOpen() {
		t.Fatal("a bare @ offers nothing")
	}
	if lines := popupLines(d); len(lines) != 1 || strings.Contains(d.m.View(), "\x1b]0;pwned") {
		t.Errorf("a file name with escapes or bad UTF-8 is offered:\n%q", lines)
	}
	d.keys("esc")
	if d.m.input.PopupOpen() || d.s.interrupts != 0 {
		t.Errorf("esc: popup open %v, interrupts %d", d.m.input.PopupOpen(), d.s.interrupts)
	}
}

// popupLines are the completion popup's lines on screen.
func popupLines(d *driver) []string {
	var out []string
	for _, line := range strings.Split(d.screen(), "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "@") || strings.HasPrefix(t, "› @") {
			out = append(out, line)
		}
	}
	return out
}

// A mention that arrives in one burst with what follows the @ (typed
// fast, or sent by tmux) still lists the workspace's paths.
func TestMentionCompletionAfterABurst(t *testing.T) {
	d := newDriver(t, 100, 30)
	d.s.paths = []string{"docs/", "docs/notes.md", "main.go"}
	d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("explain @no")})
	if lines := popupLines(d); len(lines) != 1 || !strings.Contains(lines[0], "@docs/notes.md") {
		t.Errorf("after a burst the popup shows:\n%s", strings.Join(lines, "\n"))
	}
}
