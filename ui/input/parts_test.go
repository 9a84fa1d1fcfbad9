package input

import (
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/themes"
)

// paste sends text as one pasted burst, as a terminal's bracketed paste
// arrives.
func pasteText(m *Model, text string) {
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text), Paste: true})
}

// A paste longer than the box goes in as a token the prompt sends in
// full; a second paste of the same size gets its own token; backspace
// at a token takes it out whole; a short paste goes in as it is.
func TestLargePastesBecomeTokens(t *testing.T) {
	m := newBox(t, 60)
	m.Focus()
	typeText(m, "look at ")
	long := strings.Repeat("line\r\n", 12)
	pasteText(m, long)
	if got := m.Value(); got != "look at [Pasted text +12 lines]" {
		t.Fatalf("box %q", got)
	}
	typeText(m, " and ")
	pasteText(m, strings.Repeat("line\n", 12))
	if got := m.Value(); !strings.HasSuffix(got, "and [Pasted text #2 +12 lines]") {
		t.Errorf("a second paste of the same size: %q", got)
	}
	press(m, tea.KeyBackspace)
	if got := m.Value(); got != "look at [Pasted text +12 lines] and " {
		t.Errorf("backspace at a token: %q", got)
	}
	pasteText(m, strings.Repeat("x", collapseChars+1))
	if got := m.Value(); !strings.HasSuffix(got, "[Pasted text +1 line]") {
		t.Errorf("one long line: %q", got)
	}
	sent := m.Accept()
	if want := "look at " + strings.Repeat("line\n", 12) + " and " + strings.Repeat("x", collapseChars+1); sent != want {
		t.Errorf("sent %d bytes, want the pastes in full (%d)", len(sent), len(want))
	}
	m.Restore(sent)
	if got := m.Value(); got != "look at [Pasted text +12 lines] and [Pasted text +1 line]" {
		t.Errorf("a prompt given back shows its tokens again: %q", got)
	}
	if again := m.Accept(); again != sent {
		t.Error("a restored prompt lost its pastes")
	}
	pasteText(m, "short")
	if m.Value() != "short" {
		t.Errorf("a short paste: %q", m.Value())
	}
	m.Restore("failed prompt")
	if m.Value() != "failed prompt\nshort" {
		t.Errorf("restore before what was typed since: %q", m.Value())
	}
	if h := m.History(); len(h) != 1 || h[0] != sent {
		t.Errorf("history %d entries", len(h))
	}
}

// Backspace in the middle of the text, or after an edited token, is an
// ordinary backspace.
func TestBackspaceAwayFromATokenIsPlain(t *testing.T) {
	m := newBox(t, 60)
	m.Focus()
	pasteText(m, strings.Repeat("y\n", 10))
	typeText(m, "!")
	press(m, tea.KeyLeft)
	press(m, tea.KeyBackspace)
	if got := m.Value(); got != "[Pasted text +10 lines!" {
		t.Errorf("backspace inside: %q", got)
	}
}

// Typing @ offers the workspace's files, asked for once per mention from
// a Cmd: the best matches first, a folder left open, a path with a space
// quoted, names with control characters never offered; a failed walk
// keeps the last list.
func TestMentionsOfferFiles(t *testing.T) {
	m := newBox(t, 80)
	m.Focus()
	walks := 0
	files := []string{"docs/", "engine/loop.go", "engine/main.go", "main.go", "my notes.txt", "evil\x1b[2J.go", "\xff.go", "ui/domain.go"}
	m.SetFiles(func() ([]string, error) { walks++; return files, nil })
	typeText(m, "see ")
	walk := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("@")})
	if walks != 0 || walk == nil {
		t.Fatalf("the files were listed in Update (%d walks), or no Cmd lists them", walks)
	}
	if m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("m")}) != nil {
		t.Error("a second walk started while one is under way")
	}
	msg := walk()
	if batch, ok := msg.(tea.BatchMsg); ok {
		for _, c := range batch {
			if c != nil {
				msg = c()
			}
		}
	}
	if got, ok := msg.(FilesMsg); !ok || len(got.Paths) != len(files) || walks != 1 {
		t.Fatalf("the walk's Cmd returned %#v", msg)
	}
	m.Update(msg)
	view := ansi.Strip(strings.Join(m.PopupView(10), "\n"))
	lines := strings.Split(view, "\n")
	if len(lines) < 4 || !strings.Contains(lines[0], "@main.go") || !strings.Contains(lines[1], "@my notes.txt") || !strings.Contains(lines[2], "@engine/main.go") {
		t.Errorf("the best matches are not first:\n%s", view)
	}
	if strings.Contains(view, "evil") || strings.Contains(view, "\ufffd") {
		t.Errorf("a name with control characters was offered:\n%s", view)
	}
	press(m, tea.KeyDown)
	m.Update(tea.KeyMsg{Type: tea.KeyTab})
	if got := m.Value(); got != `see @"my notes.txt" ` {
		t.Errorf("a path with a space: %q", got)
	}
	typeText(m, "@do")
	m.Update(tea.KeyMsg{Type: tea.KeyTab})
	if got := m.Value(); got != `see @"my notes.txt" @docs/` {
		t.Errorf("a folder stays open: %q", got)
	}
	m.Update(FilesMsg{Err: errors.New("walk failed")})
	typeText(m, "x")
	m.Set("@ui")
	if c, ok := m.Selected(); !ok || c.Label != "@ui/domain.go" {
		t.Errorf("after a failed walk the last list is gone: %+v %v", c, ok)
	}
	m.Set("no mention here")
	if _, ok := m.mentionCandidates(); ok {
		t.Error("a box without an @ at its end offers files")
	}
}

// The box's help follows its state: the popup's keys while it is open,
// the history's while empty, the search's while searching.
func TestHelpFollowsTheState(t *testing.T) {
	m := newBox(t, 60)
	m.Focus()
	desc := func() string {
		var out []string
		for _, b := range m.ShortHelp() {
			out = append(out, b.Help().Desc)
		}
		return strings.Join(out, ",")
	}
	empty := desc()
	typeText(m, "/m")
	popup := desc()
	typeText(m, "x")
	typing := desc()
	m.Set("")
	m.StartSearch()
	searching := desc()
	if empty == popup || popup == typing || typing == empty || !strings.Contains(searching, "older match") {
		t.Errorf("help: empty %q, popup %q, typing %q, searching %q", empty, popup, typing, searching)
	}
	if len(m.FullHelp()) != 7 {
		t.Errorf("full help %d keys", len(m.FullHelp()))
	}
	m.Blur()
	if m.Focused() {
		t.Error("Blur left the box focused")
	}
}

// The one-line box for a reason or a message: labelled, opened with or
// without text, cut to its width, relabelled for the child it goes to.
func TestLine(t *testing.T) {
	styles := themes.New(themes.Dark())
	l := NewLine("reason", "why not?")
	l.SetStyles(&styles)
	l.SetSize(30)
	l.Open("")
	if got := ansi.Strip(l.View()); !strings.HasPrefix(got, "reason › ") || ansi.StringWidth(l.View()) > 30 {
		t.Errorf("empty line %q", got)
	}
	for _, r := range "too risky" {
		l.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	if l.Value() != "too risky" {
		t.Errorf("typed %q", l.Value())
	}
	l.Blur()
	l.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("!")})
	if l.Value() != "too risky" {
		t.Error("a blurred line took a key")
	}
	l.Focus()
	l.SetLabel("message to [Explore] find auth code in the session layer")
	if ansi.StringWidth(l.View()) > 30 {
		t.Errorf("a long label overflows: %q", ansi.Strip(l.View()))
	}
	l.Open("draft")
	if l.Value() != "draft" {
		t.Errorf("opened with %q", l.Value())
	}
}

// The editor for a delegation's prompt grows with its wrapped text up to
// the room it is given, takes newlines on its key (enter approves), and
// stops taking keys once closed.
func TestEditor(t *testing.T) {
	styles := themes.New(themes.Dark())
	e := NewEditor(DefaultKeyMap())
	e.SetStyles(&styles)
	e.SetSize(20, 6)
	e.Open("find the auth code")
	short := strings.Count(e.View(), "\n") + 1
	e.Update(tea.KeyMsg{Type: tea.KeyEnter, Alt: true})
	for _, r := range "and then plan a migration to signed tokens" {
		e.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	tall := strings.Count(e.View(), "\n") + 1
	if !strings.Contains(e.Value(), "\n") || tall <= short || tall > 6 {
		t.Errorf("value %q: %d lines, then %d (room 6)", e.Value(), short, tall)
	}
	e.Close()
	e.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("zzz")})
	if strings.Contains(e.Value(), "zzz") {
		t.Error("a closed editor took keys")
	}
}
