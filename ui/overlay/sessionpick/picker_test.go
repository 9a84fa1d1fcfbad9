package sessionpick

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/themes"
)

// resumed is the message choosing a session sends.
type resumed string

// The picker lists each session with when, its first prompt cleaned and
// its figures; the running one is marked and cannot be resumed, the
// cursor starts on the newest other one, and typing finds a session by
// its prompt.
func TestSessionPickerListsAndResumes(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	sessions := []transcript.Summary{
		{ID: "run", Title: "what runs now", LastActive: now, Turns: 1},
		{ID: "s2", Title: "fix the\n\x1b[2Jflaky test", LastActive: now.Add(-90 * time.Minute), Turns: 3, Tokens: 12400, Cost: 0.0312, CostKnown: true},
		{ID: "s3", Title: "", LastActive: now.Add(-30 * 24 * time.Hour), Turns: 1},
	}
	styles := themes.New(themes.Dark())
	var got []string
	p := New(sessions, "run", now, &styles, func(id string) tea.Cmd {
		return func() tea.Msg { got = append(got, id); return resumed(id) }
	})
	p.SetSize(120, 10)
	view := ansi.Strip(p.View())
	for _, want := range []string{"Resume a session · 3 of 3", "  ● just now  what runs now  1 turn", "1h ago    fix the flaky test  3 turns · 12.4k tok · $0.031",
		"(no prompt)", "enter resume", "● this session"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(p.View(), "\x1b[2J") {
		t.Error("an escape in a recorded prompt reached the screen")
	}
	if !strings.Contains(view, "›   1h ago") {
		t.Errorf("the cursor is not on the newest session that is not running:\n%s", view)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyUp})
	if cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter}); cmd != nil {
		t.Error("enter on the running session did something")
	}
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("prompt")})
	cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("enter on a match did nothing")
	}
	for _, c := range cmd().(tea.BatchMsg) {
		c()
	}
	if len(got) != 1 || got[0] != "s3" {
		t.Errorf("resumed %v, want s3 (found by its prompt)", got)
	}
}

// When is written the short way, a date past a week.
func TestAgo(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.Local)
	for d, want := range map[time.Duration]string{
		10 * time.Second: "just now", 5 * time.Minute: "5m ago", 3 * time.Hour: "3h ago", 50 * time.Hour: "2d ago", 20 * 24 * time.Hour: "Feb 18",
	} {
		if got := ago(now, now.Add(-d)); got != want {
			t.Errorf("ago(%v) = %q, want %q", d, got, want)
		}
	}
}
