package ui

import (
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

func TestNarrowHeaderKeepsStatsOverFolder(t *testing.T) {
	opts := Options{Workspace: "/work/some/long/project/folder", Theme: "dark", ContextWindow: 128000, Demo: true, Mode: "ask"}
	d := newDriverFor(t, newFakeSession(), opts, 60, 20)
	d.emit(
		event.TurnStarted{Meta: mainMeta, Prompt: "go"},
		event.StepStarted{Meta: mainMeta, Step: 1, Max: 50},
		usage(3200, 100, 0.003),
	)
	askTool(t, d, "p1", mainMeta)
	header := strings.Split(d.screen(), "\n")[0]
	for _, want := range []string{"demo (offline)", "gpt-4.1", "3.3k tok", "ctx 2%", "$0.003"} {
		if !strings.Contains(header, want) {
			t.Errorf("header %q lacks %q", header, want)
		}
	}
	d.checkFits()
}
