package pane

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// TestGoldenPanes compares the plain text of a pane in each state with
// testdata/TestGoldenPanes/*.golden; -update rewrites them. A running pane
// has room for five lines of activity.
func TestGoldenPanes(t *testing.T) {
	for _, sc := range scenarios {
		for _, width := range []int{60, 80, 120} {
			t.Run(fmt.Sprintf("%s_%d", sc.name, width), func(t *testing.T) {
				p := newPane()
				w, h := width, 6
				p.SetSpinnerFrame("⠋ ")
				play(p, sc.events())
				p.SetNow(t0.Add(4200 * time.Millisecond))
				if p.State() != sc.state {
					t.Fatalf("state = %v, want %v", p.State(), sc.state)
				}
				view := p.View(w, h)
				if want := p.Want(w); strings.Count(p.View(w, want), "\n")+1 != want {
					t.Errorf("View in the lines Want asks for has %d lines, Want = %d", strings.Count(p.View(w, want), "\n")+1, want)
				}
				golden.RequireEqual(t, []byte(ansi.Strip(view)+"\n"))
			})
		}
	}
}
