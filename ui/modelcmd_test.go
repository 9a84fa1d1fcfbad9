package ui

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/ui/status"

	"github.com/seed-e4e525a6/baton/ui/overlay/modelpick"
)

// /model opens a picker of the endpoint's models with the catalogue's
// facts; enter switches; /model NAME the endpoint lacks warns at once.
func TestModelPickerAndCheck(t *testing.T) {
	ready := false
	opts := Options{Workspace: "/work/app", Theme: "dark", ContextWindow: 128000,
		Models: func() ([]modelpick.Model, bool) {
			return []modelpick.Model{
				{ID: "o3", ContextWindow: 200_000, InputPerMillion: 2, OutputPerMillion: 8, PriceKnown: true, Reasoning: true},
				{ID: "gpt-4.1", ContextWindow: 1_047_576, Vision: true},
			}, ready
		},
		CheckModel: func(name string) string {
			if name == "gpt-9" {
				return "the endpoint does not serve gpt-9 (it lists 2 models; /model shows them)"
			}
			return ""
		},
	}
	for _, size := range [][2]int{{120, 40}, {60, 20}} {
		ready = false
		d := newDriverFor(t, newFakeSession(), opts, size[0], size[1])
		d.command("/model")
		if d.layer() == "model" || !strings.Contains(d.m.status.Text(), "still loading") {
			t.Fatalf("%v: before the list came: overlay %q, status %q", size, d.layer(), d.m.status.Text())
		}
		ready = true
		d.command("/model")
		screen := d.screen()
		for _, want := range []string{"Switch model", "● gpt-4.1", "o3  200k ctx"} {
			if !strings.Contains(screen, want) {
				t.Errorf("%v: picker lacks %q:\n%s", size, want, screen)
			}
		}
		if size[0] == 120 && !strings.Contains(screen, "200k ctx · $2.00/$8.00 per Mtok · reasoning") {
			t.Errorf("the facts are missing at 120 columns:\n%s", screen)
		}
		d.checkFits()
		d.keys("down", "enter")
		if d.layer() != "" || d.m.header.Model() != "o3" || !d.m.input.Focused() {
			t.Fatalf("%v: after enter: overlay %q, model %q", size, d.layer(), d.m.header.Model())
		}
		d.command("/model gpt-9")
		if d.m.header.Model() != "gpt-9" || d.m.status.Level() != status.Warning || !strings.Contains(d.m.status.Text(), "does not serve gpt-9") {
			t.Errorf("%v: /model gpt-9: model %q, status %q", size, d.m.header.Model(), d.m.status.Text())
		}
		d.command("/model")
		d.keys("esc")
		if d.layer() != "" || d.m.header.Model() != "gpt-9" {
			t.Errorf("%v: esc changed the model to %q or left the picker open", size, d.m.header.Model())
		}
	}
}
