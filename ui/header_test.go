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

// When the folder has no room, no separator is left dangling before the
// gap; when it is cut, it is cut at a "/", never mid-name.
func TestHeaderFolderGivesWayCleanly(t *testing.T) {
	opts := Options{Workspace: "/tmp/walk/somerepo", Theme: "dark", Mode: "ask"}
	for width := 40; width <= 90; width++ {
		d := newDriverFor(t, newFakeSession(), opts, width, 20)
		d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"}, event.StepStarted{Meta: mainMeta, Step: 1, Max: 50}, usage(3200, 100, 0))
		for _, id := range []string{"p1", "p2", "p3"} {
			askTool(t, d, id, mainMeta)
		}
		header := strings.Split(d.screen(), "\n")[0]
		if strings.Contains(header, "·  ") {
			t.Errorf("%d: header %q", width, header)
		}
		if strings.Contains(header, "…") && !strings.Contains(header, "…/") {
			t.Errorf("%d: folder cut mid-name: %q", width, header)
		}
	}
}
