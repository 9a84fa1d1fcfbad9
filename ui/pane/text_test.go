package pane

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/ui/termtext"
)

// A pane draws its child's text as the conversation does: finished blocks
// as Markdown while it streams, the open block raw, and the whole message
// rendered once it is done, without escapes a model could slip in (the
// root cleans events where they enter, as here).
func TestTextRendersMarkdown(t *testing.T) {
	p := newPane()
	play(p, started())
	w, h := 80, 7
	for _, d := range []string{"Found **two** places:\n\n", "```go\nfunc Auth() {}\n```\n\n", "- `session.go`\x1b[2J\n- mw.go\n\nstill **writing\nand"} {
		p.Apply(termtext.Event(event.TextDelta{Meta: at(2 * time.Second), Text: d})) // cleaned where it enters, as the root does
	}
	view := p.View(w, h)
	plain := ansi.Strip(view)
	for _, want := range []string{"Found two places:", "    func Auth() {}", "• session.go", "still **writing", "and"} {
		if !strings.Contains(plain, want) {
			t.Errorf("streaming pane lacks %q:\n%s", want, plain)
		}
	}
	if strings.Contains(plain, "```") || strings.Contains(view, "\x1b[2J") {
		t.Errorf("streaming pane shows a closed fence or an escape:\n%q", view)
	}
	p.Apply(event.MessageDone{Meta: at(3 * time.Second), Text: "Found **two** places:\n\n- `session.go`\n- mw.go\n\nall **done**"})
	if plain := ansi.Strip(p.View(w, h)); !strings.Contains(plain, "• mw.go") || !strings.Contains(plain, "all done") {
		t.Errorf("the finished message is not rendered:\n%s", plain)
	}
}
