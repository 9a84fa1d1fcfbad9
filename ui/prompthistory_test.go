package ui

import (
	"strings"
	"sync"
	"testing"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// A resumed session's own prompts come first on ↑, then the project's
// from earlier runs; a sent prompt is handed to RememberPrompt.
func TestHistoryAcrossRunsResumedFirst(t *testing.T) {
	s := newFakeSession()
	s.history = []event.Event{
		event.TurnStarted{Meta: mainMeta, Prompt: "resumed one"},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted},
		event.TurnStarted{Meta: mainMeta, Prompt: "resumed two"},
		event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted},
	}
	var mu sync.Mutex
	var saved []string
	opts := Options{Workspace: "/work/app", Theme: "dark", History: []string{"older run", "resumed one", "last run"},
		RememberPrompt: func(p string) error { mu.Lock(); defer mu.Unlock(); saved = append(saved, p); return nil }}
	d := newDriverFor(t, s, opts, 120, 40)
	var got []string
	for range 5 {
		d.keys("up")
		got = append(got, d.m.input.Value())
	}
	want := []string{"resumed two", "resumed one", "last run", "older run", "older run"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("↑ recalled %q, want %q", got, want)
	}
	d.keys("down", "down", "down", "down")
	if d.m.input.Value() != "" {
		t.Fatalf("↓ past the newest leaves %q", d.m.input.Value())
	}
	d.typeText("fresh prompt")
	d.keys("enter")
	mu.Lock()
	defer mu.Unlock()
	if len(saved) != 1 || saved[0] != "fresh prompt" {
		t.Errorf("remembered %q", saved)
	}
}

// ctrl+r searches the history as the query grows; ctrl+r again steps to
// an older match, enter puts it in the box, esc gives the box back.
func TestCtrlRSearchesHistory(t *testing.T) {
	opts := Options{Workspace: "/work/app", Theme: "dark",
		History: []string{"fix the auth bug", "write docs", "add auth tests", "deploy"}}
	for _, size := range [][2]int{{120, 40}, {60, 20}} {
		d := newDriverFor(t, newFakeSession(), opts, size[0], size[1])
		d.typeText("draft")
		d.keys("ctrl+r")
		d.typeText("auth")
		if !strings.Contains(d.screen(), "search history: auth → add auth tests") {
			t.Fatalf("%v: search view:\n%s", size, d.screen())
		}
		d.checkFits()
		d.keys("ctrl+r")
		if !strings.Contains(d.screen(), "→ fix the auth bug") {
			t.Fatalf("%v: ctrl+r again:\n%s", size, d.screen())
		}
		d.keys("enter")
		if d.m.input.Value() != "fix the auth bug" || d.layer() != "" {
			t.Fatalf("%v: enter put %q in the box (overlay %v)", size, d.m.input.Value(), d.layer())
		}
		d.m.input.Set("draft")
		d.keys("ctrl+r")
		d.typeText("zzz")
		if !strings.Contains(d.screen(), "no match") {
			t.Errorf("%v: no match not said:\n%s", size, d.screen())
		}
		d.keys("backspace", "backspace", "backspace", "esc")
		if d.m.input.Value() != "draft" || d.layer() != "" {
			t.Errorf("%v: esc left %q", size, d.m.input.Value())
		}
	}
}
