package approval

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// TestGoldenFacts: a background delegation says it runs in the
// background, an ACP agent's names the program it runs, and a worktree child's edit says it writes in its
// worktree, not the person's tree, on one line: the folder gives up its
// leading folders, never its own name.
func TestGoldenFacts(t *testing.T) {
	const dir = "/home/me/.cache/baton/worktrees/app-1a2b3c/explore-1"
	cases := map[string]struct {
		fill func(t *testing.T, m *Model, timers *[]tea.Msg)
		want []string
	}{
		"background": {func(t *testing.T, m *Model, timers *[]tea.Msg) {
			req := delegation("d1", "Explore", "map the project layout")
			req.Delegation.Background = true
			armed(t, m, timers, parent, req)
		}, []string{"runs in the background"}},
		"acp": {func(t *testing.T, m *Model, timers *[]tea.Msg) {
			req := delegation("d1", "Gemini", "second opinion")
			req.Delegation.ACPAgent = "gemini --experimental-acp · env GEMINI_API_KEY"
			armed(t, m, timers, parent, req)
		}, []string{"acp agent", "runs $ gemini --experimental-acp"}},
		"worktree": {func(t *testing.T, m *Model, timers *[]tea.Msg) {
			req := tool("t1")
			req.Worktree = dir
			armed(t, m, timers, child, req)
		}, []string{"writes in its worktree", "explore-1", "not in your tree"}},
	}
	for name, c := range cases {
		for _, width := range []int{60, 80, 120} {
			t.Run(fmt.Sprintf("%s_%d", name, width), func(t *testing.T) {
				m, timers := queue(width, 20)
				c.fill(t, m, timers)
				view := ansi.Strip(m.View())
				for _, line := range strings.Split(view, "\n") {
					if w := ansi.StringWidth(line); w > width {
						t.Errorf("line %q is %d cells at %d", line, w, width)
					}
				}
				for _, want := range c.want {
					if !strings.Contains(view, want) {
						t.Errorf("the card lacks %q:\n%s", want, view)
					}
				}
				golden.RequireEqual(t, []byte(view+"\n"))
			})
		}
	}
	// A card of the person's own tree says nothing of worktrees.
	m, timers := queue(80, 20)
	armed(t, m, timers, parent, tool("t1"))
	if strings.Contains(m.View(), "worktree") {
		t.Errorf("a card of the person's tree names a worktree:\n%s", m.View())
	}
}
