package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestFullHelpFitsAndShowsOnlyLiveKeys(t *testing.T) {
	d := newDriver(t, 80, 30)
	d.keys("?")
	footer := ansi.Strip(strings.Join(d.m.footerView(), "\n"))
	if strings.Contains(footer, "…") {
		t.Errorf("the full help is cut:\n%s", footer)
	}
	for _, dead := range []string{"stop agent", "message agent", "approve all", "allow once", "interrupt"} {
		if strings.Contains(footer, dead) {
			t.Errorf("the full help lists %q, which cannot fire now:\n%s", dead, footer)
		}
	}
	for _, want := range []string{"close help", "send", "newline", "scroll up", "quit"} {
		if !strings.Contains(footer, want) {
			t.Errorf("the full help lacks %q:\n%s", want, footer)
		}
	}
	d.checkFits()
}

func TestFullHelpShowsPaneKeysWhenAPaneHasFocus(t *testing.T) {
	d := threeRunning(t, 80, 40)
	d.keys("tab", "?")
	footer := ansi.Strip(strings.Join(d.m.footerView(), "\n"))
	for _, want := range []string{"stop agent", "message agent", "transcript", "close help"} {
		if !strings.Contains(footer, want) {
			t.Errorf("the full help lacks %q:\n%s", want, footer)
		}
	}
	if strings.Contains(footer, "…") {
		t.Errorf("the full help is cut:\n%s", footer)
	}
}

// The layout's footer height is computed, not drawn, and matches what is
// drawn: short and full help, with a card and without, at every width.
func TestFooterHeightMatchesTheFooter(t *testing.T) {
	for _, width := range []int{20, 60, 80, 120, 200} {
		d := newDriver(t, width, 40)
		for _, step := range []func(){func() {}, func() { d.keys("?") }, func() { askTool(t, d, "p1", mainMeta) }, func() { d.keys("?") }} {
			step()
			if got, want := d.m.footerHeight(), len(d.m.footerView()); got != want {
				t.Errorf("at %d (full help %v) the footer height is %d, drawn %d", width, d.m.help.ShowAll, got, want)
			}
		}
	}
}
