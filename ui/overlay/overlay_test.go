package overlay

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/convo"
)

var meta = event.Meta{Agent: "explore-1", AgentType: "Explore", Parent: event.MainAgent}

func keys() TranscriptKeys {
	b := func(k string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, k)) }
	return TranscriptKeys{Back: b("esc"), Up: b("up"), Down: b("down"), PageUp: b("pgup"), PageDown: b("pgdown"),
		Top: b("home"), Bottom: b("end"), Expand: b("ctrl+o"), Stop: b("x"), Help: b("?")}
}

// child is a sub-agent as a transcript sees it.
type child struct {
	conv *convo.Model
	live bool
}

func (c *child) ID() event.AgentID          { return meta.Agent }
func (c *child) Conversation() *convo.Model { return c.conv }
func (c *child) Live() bool                 { return c.live }
func (c *child) HeaderLine(w int) string {
	return ansi.Truncate("⠋ #1 [Explore] map the layout ... 6 tools", w, "…")
}

// stopped is the message a transcript's stop function returns.
type stopped struct{}

// draw is a plain drawing of an entry: its title, then its body's lines
// (only the first unless expanded).
func draw(e convo.Entry, width int, expanded bool) []string {
	lines := []string{fmt.Sprintf("[%d] %s %s", e.Kind, e.Title, e.Summary)}
	body := strings.Split(e.Body, "\n")
	if !expanded && len(body) > 1 {
		body = append(body[:1], "…")
	}
	for _, l := range body {
		lines = append(lines, "  "+ansi.Truncate(l, width-2, ""))
	}
	return lines
}

func transcript(t *testing.T, width, height int) (*Transcript, *convo.Model, *child) {
	t.Helper()
	c := convo.New("Explore")
	c.Apply(event.AgentStarted{Meta: meta, Prompt: "Map the layout."})
	for i := range 6 {
		id := fmt.Sprint("c", i)
		c.Apply(event.ToolStarted{Meta: meta, CallID: id, Name: "read_file", Title: fmt.Sprintf("read_file f%d.go", i)})
		c.Apply(event.ToolFinished{Meta: meta, CallID: id, Name: "read_file", Summary: "3 lines", Output: "one\ntwo\nthree"})
	}
	c.Apply(event.TextDelta{Meta: meta, Text: "Reading the last of them"})
	kid := &child{conv: c, live: true}
	tr := NewTranscript(kid, draw, keys(), false, func() tea.Cmd { return func() tea.Msg { return stopped{} } })
	tr.SetSize(width, height+1)
	return tr, c, kid
}

func press(k string) tea.KeyMsg {
	switch k {
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "pgup":
		return tea.KeyMsg{Type: tea.KeyPgUp}
	case "home":
		return tea.KeyMsg{Type: tea.KeyHome}
	case "end":
		return tea.KeyMsg{Type: tea.KeyEnd}
	case "ctrl+o":
		return tea.KeyMsg{Type: tea.KeyCtrlO}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// TestGoldenTranscript compares the view at three widths; -update
// rewrites them.
func TestGoldenTranscript(t *testing.T) {
	for _, width := range []int{60, 80, 120} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			tr, _, _ := transcript(t, width, 12)
			view := tr.View()
			if n := strings.Count(view, "\n") + 1; n != 13 {
				t.Errorf("the view has %d lines, want 13", n)
			}
			golden.RequireEqual(t, []byte(view+"\n"))
		})
	}
}

// The view follows the bottom while the child works, stays where it was
// scrolled to, and follows again once scrolled back down.
func TestTranscriptFollowsAndScrolls(t *testing.T) {
	tr, c, kid := transcript(t, 60, 6)
	last := func() string { lines := strings.Split(tr.View(), "\n"); return lines[len(lines)-1] }
	if !strings.Contains(last(), "Reading the last of them") {
		t.Fatalf("not at the bottom:\n%s", tr.View())
	}
	tr.Update(press("pgup"))
	c.Apply(event.MessageDone{Meta: meta, Text: "All read."})
	c.Apply(event.AgentMessage{Meta: meta, Text: "thanks"})
	if strings.Contains(tr.View(), "thanks") {
		t.Fatalf("a scrolled view jumped to the new entry:\n%s", tr.View())
	}
	tr.Update(press("end"))
	if !strings.Contains(last(), "thanks") {
		t.Errorf("end does not follow again:\n%s", tr.View())
	}
	tr.Update(press("home"))
	if !strings.Contains(tr.View(), "Map the layout.") {
		t.Errorf("home does not show the prompt:\n%s", tr.View())
	}
	before := tr.View()
	tr.Update(press("ctrl+o"))
	if !tr.Expanded() || tr.View() == before {
		t.Error("ctrl+o does not expand the output")
	}
	if _, ok := tr.Update(press("x"))().(stopped); !ok {
		t.Error("x does not stop the child")
	}
	if msg, ok := tr.Update(press("esc"))().(Close); !ok || msg.Layer != tr {
		t.Error("esc does not close the transcript")
	}
	if tr.Route(press("?")) != Help || tr.Route(press("x")) != Take {
		t.Error("? is not left to the help, or x not taken")
	}
	running := len(tr.ShortHelp())
	kid.live = false
	if got := len(tr.ShortHelp()); got != running-1 {
		t.Errorf("stop shows for a finished child: %d keys", got)
	}
}

// The help lays groups out in columns under their names, and wraps
// columns onto a new row rather than cut a key.
func TestFullHelp(t *testing.T) {
	styles := themes.New(themes.Dark())
	b := func(k, d string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, d)) }
	groups := []KeyGroup{
		{Where: "input", Keys: []key.Binding{b("enter", "send"), b("ctrl+j", "newline")}},
		{Where: "conversation", Keys: []key.Binding{b("pgup", "scroll up"), b("ctrl+o", "expand")}},
		{Where: "anywhere", Keys: []key.Binding{b("ctrl+c", "quit")}},
	}
	for _, width := range []int{30, 80} {
		lines := FullHelp(groups, &styles, width)
		plain := ansi.Strip(strings.Join(lines, "\n"))
		for _, want := range []string{"input", "conversation", "anywhere", "enter  send", "ctrl+o expand", "ctrl+c quit"} {
			if !strings.Contains(plain, want) {
				t.Errorf("at %d the help lacks %q:\n%s", width, want, plain)
			}
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > width {
				t.Errorf("at %d a line is %d wide: %q", width, w, ansi.Strip(l))
			}
		}
	}
	if n := len(FullHelp(groups, &styles, 80)); n != 3 {
		t.Errorf("at 80 the groups take %d lines, want one row of 3", n)
	}
	for width := 5; width <= 160; width++ {
		if got, want := FullHelpHeight(groups, width), len(FullHelp(groups, &styles, width)); got != want {
			t.Errorf("at %d the height computed is %d, drawn %d", width, got, want)
		}
	}
}

// The transcript is a page layer: the wheel scrolls it, its full help
// names it, and a new theme redraws it.
func TestTranscriptLayer(t *testing.T) {
	tr, _, _ := transcript(t, 60, 4)
	if tr.Place() != Page || tr.ID() != meta.Agent {
		t.Error("the transcript is not a page layer of its child")
	}
	bottom := tr.View()
	tr.Update(tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelUp})
	if tr.View() == bottom {
		t.Error("the wheel did not scroll up")
	}
	tr.Update(tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelDown})
	tr.Update(tea.MouseMsg{Action: tea.MouseActionRelease, Button: tea.MouseButtonWheelUp})
	if tr.View() != bottom {
		t.Error("the wheel did not scroll back down")
	}
	tr.Update(Restyle{})
	if tr.lines != nil {
		t.Error("a new theme kept the drawing")
	}
	if groups := tr.FullHelp(); len(groups) != 1 || groups[0].Where != "transcript" {
		t.Errorf("full help %+v", groups)
	}
}
