package input

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/seed-e4e525a6/baton/themes"
)

// newBox makes a box width cells wide whose popup offers /model and
// /mcp after "/m".
func newBox(t *testing.T, width int) *Model {
	t.Helper()
	styles := themes.New(themes.Dark())
	m := New(DefaultKeyMap(), func(v string) []Candidate {
		if !strings.HasPrefix(v, "/") || strings.Contains(v, " ") {
			return nil
		}
		var out []Candidate
		for _, c := range []Candidate{{Label: "/model [name]", Text: "/model ", Desc: "show or switch the model"}, {Label: "/mcp", Text: "/mcp", Desc: "MCP servers", Complete: true}} {
			if strings.HasPrefix(c.Text, v) {
				out = append(out, c)
			}
		}
		return out
	})
	m.SetStyles(&styles)
	m.SetSize(width)
	return m
}

func typeText(m *Model, text string) {
	for _, r := range text {
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func press(m *Model, k tea.KeyType) { m.Update(tea.KeyMsg{Type: k}) }

// screen is the box and the popup above it, as plain text.
func screen(m *Model) string {
	return ansi.Strip(strings.Join(append(m.PopupView(10), m.View()), "\n"))
}

// checkHeight holds Height to what View draws, and every line to width.
func checkHeight(t *testing.T, m *Model, width int) {
	t.Helper()
	view := m.View()
	if got := strings.Count(view, "\n") + 1; got != m.Height() {
		t.Errorf("View has %d lines, Height() = %d", got, m.Height())
	}
	for _, line := range strings.Split(view, "\n") {
		if w := ansi.StringWidth(line); w > width {
			t.Errorf("line %q is %d cells wide at %d", ansi.Strip(line), w, width)
		}
	}
}

// TestGolden compares the box in each state with testdata; -update
// rewrites them.
func TestGolden(t *testing.T) {
	cases := map[string]func(m *Model){
		"empty": func(*Model) {},
		"wrapped": func(m *Model) {
			typeText(m, strings.Repeat("rename the loop ", 9)+"tail")
		},
		"queued": func(m *Model) {
			for i := range 5 {
				m.Enqueue(fmt.Sprintf("queued prompt %d\nwith a second line", i))
			}
			typeText(m, "and one more")
		},
		"search": func(m *Model) {
			m.SetHistory([]string{"rename Run to Loop in engine/loop.go\nand its callers", "go test ./..."})
			press(m, tea.KeyCtrlR)
			typeText(m, "ren")
		},
		"popup": func(m *Model) {
			typeText(m, "/m")
			press(m, tea.KeyDown)
		},
	}
	for name, fill := range cases {
		for _, width := range []int{60, 80, 120} {
			t.Run(fmt.Sprintf("%s_%d", name, width), func(t *testing.T) {
				m := newBox(t, width)
				fill(m)
				checkHeight(t, m, width)
				golden.RequireEqual(t, []byte(screen(m)+"\n"))
			})
		}
	}
}

func TestShowsEveryLineAfterNewline(t *testing.T) {
	m := newBox(t, 80)
	typeText(m, "first line")
	press(m, tea.KeyCtrlJ)
	typeText(m, "second")
	if s := screen(m); !strings.Contains(s, "> first line") || !strings.Contains(s, "second") {
		t.Errorf("a line of the input is hidden:\n%s", s)
	}
	checkHeight(t, m, 80)
}

func TestGrowsWithWrappedRows(t *testing.T) {
	m := newBox(t, 60)
	typeText(m, strings.Repeat("word ", 30)+"tail")
	if s := screen(m); !strings.Contains(s, "> word word") || !strings.Contains(s, "tail") {
		t.Errorf("the long line shows only part of itself:\n%s", s)
	}
	if h := m.Height() - 2; h < 3 {
		t.Errorf("the box is %d rows for a line that wraps to 3", h)
	}
	checkHeight(t, m, 60)
}

func TestScrollsInsideAtItsMaximum(t *testing.T) {
	m := newBox(t, 80)
	for i := range 12 {
		if i > 0 {
			press(m, tea.KeyCtrlJ)
		}
		typeText(m, "line"+string(rune('a'+i)))
	}
	if h := m.Height() - 2; h != MaxLines {
		t.Errorf("box height %d, want %d", h, MaxLines)
	}
	if s := screen(m); !strings.Contains(s, "linel") {
		t.Errorf("the line being typed is not visible:\n%s", s)
	}
	checkHeight(t, m, 80)
}

// Up walks the history only while the box is empty or holds what the
// walk put there, so editing a recalled prompt is not lost to ↓.
func TestHistoryWalk(t *testing.T) {
	m := newBox(t, 80)
	for _, p := range []string{"one", "two", "two"} {
		typeText(m, p)
		m.Accept()
	}
	press(m, tea.KeyUp)
	press(m, tea.KeyUp)
	if m.Value() != "one" {
		t.Fatalf("two ups show %q, want one (repeats are kept once)", m.Value())
	}
	press(m, tea.KeyUp)
	if m.Value() != "one" {
		t.Fatalf("up past the oldest shows %q", m.Value())
	}
	typeText(m, "!")
	press(m, tea.KeyDown)
	if m.Value() != "one!" {
		t.Errorf("down on an edited prompt replaced it: %q", m.Value())
	}
	m.Set("")
	press(m, tea.KeyUp)
	press(m, tea.KeyDown)
	if m.Value() != "" {
		t.Errorf("down past the newest shows %q, want an empty box", m.Value())
	}
}

// Enter on a partly typed command completes it; one that takes no
// arguments is taken at once; esc closes the popup until the text
// changes.
func TestAcceptCompletes(t *testing.T) {
	m := newBox(t, 80)
	typeText(m, "/mo")
	if got := m.Accept(); got != "" || m.Value() != "/model " {
		t.Fatalf("enter on /mo took %q and left %q", got, m.Value())
	}
	m.Set("")
	typeText(m, "/mc")
	if got := m.Accept(); got != "/mcp" || m.Value() != "" {
		t.Fatalf("enter on /mc took %q and left %q", got, m.Value())
	}
	typeText(m, "/m")
	press(m, tea.KeyEsc)
	if m.PopupOpen() {
		t.Fatal("esc left the popup open")
	}
	typeText(m, "c")
	if !m.PopupOpen() {
		t.Error("the popup stayed closed after the text changed")
	}
}

// ctrl+r finds the newest match, ctrl+r again an older one; enter puts
// it in the box, esc gives back what the box held.
func TestSearch(t *testing.T) {
	m := newBox(t, 80)
	m.SetHistory([]string{"go test ./ui", "make lint", "go vet ./..."})
	typeText(m, "draft")
	press(m, tea.KeyCtrlR)
	typeText(m, "go")
	if s := screen(m); !strings.Contains(s, "search history: go → go vet ./...") || m.Height() != 3 {
		t.Fatalf("search shows:\n%s", s)
	}
	press(m, tea.KeyCtrlR)
	press(m, tea.KeyEnter)
	if m.Searching() || m.Value() != "go test ./ui" {
		t.Fatalf("enter left %q (searching %v)", m.Value(), m.Searching())
	}
	press(m, tea.KeyCtrlR)
	typeText(m, "zzz")
	if !strings.Contains(screen(m), "no match") {
		t.Errorf("no match not said:\n%s", screen(m))
	}
	press(m, tea.KeyEsc)
	if m.Searching() || m.Value() != "go test ./ui" {
		t.Errorf("esc left %q", m.Value())
	}
}

// Queued messages come back oldest first, and a failed prompt goes back
// before what was typed since.
func TestQueueAndRestore(t *testing.T) {
	m := newBox(t, 80)
	m.Enqueue("a")
	m.Enqueue("b")
	if next, _ := m.Dequeue(); next != "a" || m.Queued() != 1 {
		t.Fatalf("dequeue gave %q with %d left", next, m.Queued())
	}
	typeText(m, "new")
	m.Restore("old")
	if m.Value() != "old\nnew" {
		t.Errorf("restore left %q", m.Value())
	}
}
