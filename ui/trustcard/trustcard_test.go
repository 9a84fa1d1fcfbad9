package trustcard

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/trust"
	"github.com/seed-e4e525a6/baton/themes"
)

func request() trust.Request {
	return trust.Request{
		Folder: "/home/ann/src/cloned",
		Sections: []trust.Section{
			{Title: "Endpoint", Lines: []string{"base_url = https://evil.example/v1"}},
			{Title: "Agents", Lines: []string{"explore (.baton/agents/explore.md): tools read_file, write_file, run_command"}},
			{Title: "Raised limits", Lines: []string{"limits.max_concurrent = 64 (yours: 8)"}},
		},
	}
}

func newCard(req trust.Request, w, h int) Model {
	m := New(req, themes.New(themes.Dark()))
	next, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return next.(Model)
}

func press(m Model, keys ...string) (Model, tea.Cmd) {
	var cmd tea.Cmd
	for _, k := range keys {
		msg := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		switch k {
		case "esc":
			msg = tea.KeyMsg{Type: tea.KeyEsc}
		case "ctrl+c":
			msg = tea.KeyMsg{Type: tea.KeyCtrlC}
		case "down":
			msg = tea.KeyMsg{Type: tea.KeyDown}
		case "up":
			msg = tea.KeyMsg{Type: tea.KeyUp}
		}
		var next tea.Model
		next, cmd = m.Update(msg)
		m = next.(Model)
	}
	return m, cmd
}

func arm(m Model) Model {
	next, _ := m.Update(armMsg{})
	return next.(Model)
}

func screen(m Model) string { return ansi.Strip(m.View()) }

func TestCardListsWhatTheProjectWants(t *testing.T) {
	m := arm(newCard(request(), 100, 30))
	out := screen(m)
	for _, want := range []string{"Trust this folder's project settings?", "/home/ann/src/cloned",
		"Endpoint", "base_url = https://evil.example/v1", "Agents", "explore (.baton/agents/explore.md): tools read_file, write_file, run_command",
		"Raised limits", "limits.max_concurrent = 64 (yours: 8)", "t trust and remember", "r run without them", "q quit"} {
		if !strings.Contains(out, want) {
			t.Errorf("card lacks %q:\n%s", want, out)
		}
	}
}

func TestCardAnswers(t *testing.T) {
	for _, tc := range []struct {
		keys []string
		want Choice
	}{
		{[]string{"t"}, Trust}, {[]string{"r"}, RunWithout}, {[]string{"n"}, RunWithout},
		{[]string{"q"}, Quit}, {[]string{"esc"}, Quit}, {[]string{"ctrl+c"}, Quit},
	} {
		m, cmd := press(arm(newCard(request(), 80, 24)), tc.keys...)
		if !m.Done() || m.Choice() != tc.want || cmd == nil {
			t.Errorf("%v: done %v choice %v cmd %v, want %v and a quit", tc.keys, m.Done(), m.Choice(), cmd != nil, tc.want)
			continue
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Errorf("%v: the card did not quit its program", tc.keys)
		}
	}
}

// Keys typed ahead, before the card was drawn or just as it appeared,
// must not trust the folder; quitting always works.
func TestCardIgnoresAnswersBeforeItIsArmed(t *testing.T) {
	m, _ := press(newCard(request(), 80, 24), "t", "r")
	if m.Done() {
		t.Fatalf("typed-ahead key answered the card with %v", m.Choice())
	}
	if !strings.Contains(screen(m), "keys answer in a moment") {
		t.Errorf("the card should say its keys are not live yet:\n%s", screen(m))
	}
	if m, _ := press(m, "q"); !m.Done() || m.Choice() != Quit {
		t.Error("q must quit even before the card is armed")
	}
	if cmd := New(request(), themes.New(themes.Dark())).Init(); cmd == nil {
		t.Error("Init must start the arming clock")
	}
}

func TestCardHomeFolderWarning(t *testing.T) {
	m := arm(newCard(trust.Request{Folder: "/home/ann", Warning: "This is your home folder."}, 80, 24))
	out := screen(m)
	for _, want := range []string{"Start baton in this folder?", "This is your home folder.", "r start once without trusting"} {
		if !strings.Contains(out, want) {
			t.Errorf("card lacks %q:\n%s", want, out)
		}
	}
}

// A hostile repository's text is cleaned, and no line is wider than the
// terminal; a long list scrolls instead of being cut off.
func TestCardFitsAndScrolls(t *testing.T) {
	req := request()
	req.Sections[0].Lines[0] = "base_url = \x1b]0;pwned\x07https://" + strings.Repeat("very-long-host.", 12) + "example/v1"
	for i := range 40 {
		req.Sections[2].Lines = append(req.Sections[2].Lines, fmt.Sprintf("limit_%d = 99", i))
	}
	for _, w := range []int{30, 60, 140} {
		m := arm(newCard(req, w, 20))
		view := m.View()
		if strings.Contains(view, "pwned") || strings.Contains(view, "\x07") {
			t.Errorf("width %d: escape sequence reached the screen", w)
		}
		lines := strings.Split(view, "\n")
		if len(lines) > 20 {
			t.Errorf("width %d: %d lines for a 20-line terminal", w, len(lines))
		}
		for _, l := range lines {
			if lipgloss.Width(l) > w {
				t.Errorf("width %d: line of %d cells: %q", w, lipgloss.Width(l), ansi.Strip(l))
			}
		}
		if !strings.Contains(ansi.Strip(view), "↑/↓ scroll") {
			t.Errorf("width %d: no scroll hint", w)
		}
		for range 200 {
			m, _ = press(m, "down")
		}
		if !strings.Contains(screen(m), "limit_39 = 99") {
			t.Errorf("width %d: scrolling to the end does not show the last line:\n%s", w, screen(m))
		}
	}
}

// A card whose program ends without an answer (the context is cancelled
// by a signal) is Quit: nothing is trusted by default.
func TestAskTypeAheadThenCancelIsQuit(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{drawn: make(chan struct{})}
	go func() {
		<-out.drawn
		cancel()
	}()
	choice, err := Ask(ctx, request(), "dark", tea.WithInput(strings.NewReader("")), tea.WithOutput(out))
	if err != nil || choice != Quit {
		t.Fatalf("choice %v, err %v; want Quit", choice, err)
	}
}

// syncBuffer is program output that signals once the card was drawn.
type syncBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	drawn chan struct{}
	once  sync.Once
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Write(p); strings.Contains(b.buf.String(), "Trust this folder") {
		b.once.Do(func() { close(b.drawn) })
	}
	return len(p), nil
}

// TestCardListsHooksAndSkills: a project's hooks are among what waits for
// trust; its skills are listed apart, as loading either way.
func TestCardListsHooksAndSkills(t *testing.T) {
	req := request()
	req.Sections = append(req.Sections, trust.Section{Title: "Hooks (commands run at tool calls and prompts)",
		Lines: []string{"PreToolUse Bash: ./guard.sh (.claude/settings.json)"}})
	req.Loaded = []trust.Section{{Title: "Skills", Lines: []string{"deploy (.claude/skills/deploy/SKILL.md): ships the site"}}}
	got := screen(arm(newCard(req, 100, 60)))
	hooks, either, skill := strings.Index(got, "PreToolUse Bash: ./guard.sh"), strings.Index(got, "These load either way"), strings.Index(got, "deploy (.claude/skills")
	if hooks < 0 || either < 0 || skill < 0 || !(hooks < either && either < skill) {
		t.Errorf("card:\n%s", got)
	}
}
