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
