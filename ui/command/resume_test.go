package command

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/transcript"
	"github.com/seed-e4e525a6/baton/ui/overlay"
	"github.com/seed-e4e525a6/baton/ui/overlay/pick"
	"github.com/seed-e4e525a6/baton/ui/status"
)

// resumed is the message the root's resume Cmd brings back.
type resumed string

// /resume opens the picker over this folder's other sessions, or
// switches to the one named; it refuses while a turn runs, without a
// state folder, for the session in use or a word that is not an id, and
// says when there is no other session or the list cannot be read.
func TestResume(t *testing.T) {
	sessions := []transcript.Summary{
		{ID: "now", Title: "this one", LastActive: time.Now()},
		{ID: "s1", Title: "fix the parser", LastActive: time.Now().Add(-time.Hour), Turns: 2},
	}
	var listErr error
	opts := Options{SessionID: "now",
		Sessions: func() ([]transcript.Summary, error) { return sessions, listErr },
		Resume:   func(id string) tea.Cmd { return func() tea.Msg { return resumed(id) } },
	}
	h := newHarness(t, opts)
	msgs := h.run("/resume", false)
	if len(msgs) != 1 {
		t.Fatalf("/resume brought %v", msgs)
	}
	open, ok := msgs[0].(overlay.Open)
	if p, isPicker := open.Layer.(*pick.Picker); !ok || !isPicker || p.Title() != "Resume a session" {
		t.Fatalf("/resume opened %#v", msgs[0])
	}
	if msgs := h.run("/sessions", false); len(msgs) != 1 {
		t.Errorf("/sessions brought %v", msgs)
	}
	if msgs := h.run("/resume s1", false); len(msgs) != 1 || msgs[0] != resumed("s1") || h.status.Text() != "resuming s1…" {
		t.Errorf("/resume s1 brought %v, said %q", msgs, h.status.Text())
	}
	for line, want := range map[string]string{
		"/resume now":       "that is the session you are in",
		"/resume two words": "is not a session id",
	} {
		if msgs := h.run(line, false); len(msgs) != 0 || !strings.Contains(h.status.Text(), want) {
			t.Errorf("%s: %v, said %q", line, msgs, h.status.Text())
		}
	}
	if msgs := h.run("/resume s1", true); len(msgs) != 0 || !strings.Contains(h.status.Text(), "a turn is running") {
		t.Errorf("while busy: %v, said %q", msgs, h.status.Text())
	}
	sessions = sessions[:1]
	if msgs := h.run("/resume", false); len(msgs) != 1 || msgs[0].(status.Said).Text != "resume: this folder has no other session" {
		t.Errorf("alone: %v", msgs)
	}
	listErr = errors.New("permission denied\x1b[2J")
	if msgs := h.run("/resume", false); len(msgs) != 1 || msgs[0].(status.Said).Level != status.Error || strings.Contains(msgs[0].(status.Said).Text, "\x1b") {
		t.Errorf("a list that fails: %v", msgs)
	}
	bare := newHarness(t, Options{})
	if msgs := bare.run("/resume", false); len(msgs) != 0 || !strings.Contains(bare.status.Text(), "no state folder") {
		t.Errorf("without a state folder: %v, said %q", msgs, bare.status.Text())
	}
}

// /trust records the folder on the person's trust list and says what
// that means in the conversation; it takes no argument, needs a trust
// list, and says why when recording fails.
func TestTrust(t *testing.T) {
	fail := false
	h := newHarness(t, Options{Trust: func() (string, error) {
		if fail {
			return "", errors.New("the state folder is read-only")
		}
		return "trusted /work/app: its project settings apply from the next start", nil
	}})
	if r := h.result("/trust"); r.Note != "/trust\ntrusted /work/app: its project settings apply from the next start" {
		t.Errorf("/trust noted %q", r.Note)
	}
	fail = true
	if msgs := h.run("/trust", false); len(msgs) != 1 || !strings.Contains(msgs[0].(status.Said).Text, "read-only") {
		t.Errorf("a failed /trust: %v", msgs)
	}
	if msgs := h.run("/trust /etc", false); len(msgs) != 0 || !strings.Contains(h.status.Text(), "takes no argument") {
		t.Errorf("/trust DIR: %v, said %q", msgs, h.status.Text())
	}
	bare := newHarness(t, Options{})
	if msgs := bare.run("/trust", false); len(msgs) != 0 || !strings.Contains(bare.status.Text(), "no state folder") {
		t.Errorf("without a trust list: %v, said %q", msgs, bare.status.Text())
	}
}
