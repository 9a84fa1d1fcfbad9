package header

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
)

var mainAgent = event.Meta{Agent: event.MainAgent}

// request is a model request's usage as the engine reports it.
func request(prompt, completion int, cost float64) event.UsageReported {
	u := event.Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion, Requests: 1, Cost: cost, CostKnown: cost > 0}
	return event.UsageReported{Meta: mainAgent, Request: u, Total: u}
}

func newHeader(opts Options) *Model {
	styles := themes.New(themes.Dark())
	return New(&styles, opts)
}

// line is the header's first line, plain.
func line(h *Model, width, background, approvals int) string {
	lines := h.View(width, background, approvals)
	if len(lines) != Rows {
		panic("the header is not two lines")
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			panic("a header line is wider than the terminal")
		}
	}
	return ansi.Strip(lines[0])
}

func TestNarrowHeaderKeepsStatsOverFolder(t *testing.T) {
	h := newHeader(Options{Folder: "/work/some/long/project/folder", Model: "gpt-4.1", Window: 128000, Demo: true, Mode: "ask"})
	h.Update(event.StepStarted{Meta: mainAgent, Step: 1, Max: 50})
	h.Update(request(3200, 100, 0.003))
	header := line(h, 60, 0, 1)
	for _, want := range []string{"demo (offline)", "gpt-4.1", "3.3k tok", "ctx 2%", "$0.003"} {
		if !strings.Contains(header, want) {
			t.Errorf("header %q lacks %q", header, want)
		}
	}
}

// When the folder has no room, no separator is left dangling before the
// gap; when it is cut, it is cut at a "/", never mid-name.
func TestHeaderFolderGivesWayCleanly(t *testing.T) {
	h := newHeader(Options{Folder: "/tmp/walk/somerepo", Model: "gpt-4.1", Mode: "ask"})
	h.Update(event.StepStarted{Meta: mainAgent, Step: 1, Max: 50})
	h.Update(request(3200, 100, 0))
	for width := 40; width <= 90; width++ {
		header := line(h, width, 0, 3)
		if strings.Contains(header, "·  ") {
			t.Errorf("%d: header %q", width, header)
		}
		if strings.Contains(header, "…") && !strings.Contains(header, "…/") {
			t.Errorf("%d: folder cut mid-name: %q", width, header)
		}
	}
}

// The context fill counts the last model request, not a tool's usage
// between requests; a turn's usage adds up when it ends; a resumed
// session's last request fills the context; a new model brings its
// window.
func TestUsageAndModel(t *testing.T) {
	windows := map[string]int64{"small": 10000, "big": 1000000}
	h := newHeader(Options{Folder: "/w", Model: "small", WindowOf: func(m string) int64 { return windows[m] }})
	h.Update(request(1000, 0, 0)) // outside a request: no fill
	if header := line(h, 120, 0, 0); strings.Contains(header, "ctx") {
		t.Errorf("a usage outside a request filled the context: %q", header)
	}
	h.Update(event.StepStarted{Meta: mainAgent, Step: 1})
	h.Update(request(2000, 500, 0))
	h.Update(event.MessageDone{Meta: mainAgent})
	h.Update(event.TurnEnded{Meta: mainAgent, Usage: event.Usage{TotalTokens: 2500}})
	if header := line(h, 120, 2, 0); !strings.Contains(header, "ctx 25%") || !strings.Contains(header, "2.5k tok") || !strings.Contains(header, "2 in background") {
		t.Errorf("after a turn: %q", header)
	}
	h.SetModel("big")
	if header := line(h, 120, 0, 0); h.Model() != "big" || !strings.Contains(header, "ctx 0%") {
		t.Errorf("after switching to big: %q", header)
	}
	h.Resumed(request(500000, 0, 0))
	if header := line(h, 120, 0, 0); !strings.Contains(header, "ctx 50%") {
		t.Errorf("resumed: %q", header)
	}
	for sandbox, want := range map[string]string{"off": "sandbox off", "unavailable": "no sandbox", "read-only": "read-only"} {
		if header := line(newHeader(Options{Sandbox: sandbox, Mode: "yolo", Model: "m"}), 120, 0, 0); !strings.Contains(header, want) || !strings.Contains(header, "yolo") {
			t.Errorf("sandbox %s: %q", sandbox, header)
		}
	}
}
