package review

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/seed-e4e525a6/baton/engine/event"
	"github.com/seed-e4e525a6/baton/themes"
	"github.com/seed-e4e525a6/baton/ui/overlay"
)

// reviewer holds a change the way the engine does: each action decides
// files or hunks; a file named in clash meets a conflict until resolved;
// once nothing is undecided, the review is gone.
type reviewer struct {
	mu      sync.Mutex
	review  event.Review
	clash   string
	actions []string
}

func (r *reviewer) Review(event.AgentID) (event.Review, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, f := range r.review.Files {
		if f.Pending() {
			return r.review, nil
		}
	}
	return event.Review{}, errors.New("no review")
}

func (r *reviewer) decide(file, hunk int, d string) {
	for fi := range r.review.Files {
		if file >= 0 && fi != file {
			continue
		}
		f := &r.review.Files[fi]
		for hi := range f.Hunks {
			if (hunk < 0 || hi == hunk) && f.Hunks[hi].Decision == event.DecisionPending {
				f.Hunks[hi].Decision = d
			}
		}
	}
}

func (r *reviewer) ApplyChange(_ context.Context, _ event.AgentID, file, hunk int, resolution string) (*event.ReviewConflict, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.actions = append(r.actions, strings.TrimSpace("apply "+string(rune('0'+file+1))+" "+resolution))
	for fi, f := range r.review.Files {
		if (file < 0 || fi == file) && f.Path == r.clash && resolution == "" {
			return &event.ReviewConflict{Path: f.Path, Regions: []event.ConflictRegion{{Mine: "mine\n", Child: "theirs\n"}}}, nil
		}
	}
	r.decide(file, hunk, event.DecisionApplied)
	return nil, nil
}

func (r *reviewer) SkipChange(_ event.AgentID, file, hunk int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.actions = append(r.actions, "skip "+string(rune('0'+file+1)))
	r.decide(file, hunk, event.DecisionSkipped)
	return nil
}

func hunk(text string) event.ReviewHunk {
	return event.ReviewHunk{Header: "@@ -1 +1 @@", Lines: []event.DiffLine{{Kind: '-', Text: "old " + text}, {Kind: '+', Text: "new " + text}}}
}

func change() event.Review {
	return event.Review{Agent: "general-purpose-1", AgentType: "General", Description: "edit the parser", From: "main@1b96d60",
		Files: []event.ReviewFile{
			{Path: "a.go", Status: "modified", Added: 2, Removed: 2, Hunks: []event.ReviewHunk{hunk("a1"), hunk("a2")}},
			{Path: "b.go", Status: "added", Added: 1, Hunks: []event.ReviewHunk{hunk("b1")}},
		}}
}

func keyMsg(k string) tea.KeyMsg {
	switch k {
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "pgdown":
		return tea.KeyMsg{Type: tea.KeyPgDown}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// messages runs a Cmd and what it batches or sequences, in order.
func messages(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if msg == nil {
		return nil
	}
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeOf(tea.Cmd(nil)) {
		return []tea.Msg{msg}
	}
	var out []tea.Msg
	for i := range v.Len() {
		out = append(out, messages(v.Index(i).Interface().(tea.Cmd))...)
	}
	return out
}

// press gives m a key and feeds the engine's answers back, as the root
// does; it returns the other messages.
func press(m *Model, keys ...string) []tea.Msg {
	var rest []tea.Msg
	for _, k := range keys {
		pending := messages(m.Update(keyMsg(k)))
		for len(pending) > 0 {
			msg := pending[0]
			pending = pending[1:]
			if l, ok := msg.(LoadedMsg); ok {
				pending = append(pending, messages(m.Update(l))...)
				continue
			}
			rest = append(rest, msg)
		}
	}
	return rest
}

func screen(m *Model) string { return ansi.Strip(m.View()) }

// A review opens over everything; y and n decide a hunk and move on; A
// applies the rest, meeting a conflict that m settles; esc closes it
// with the change still waiting, and one with nothing left closes
// itself.
func TestReviewDecidesHunksAndCloses(t *testing.T) {
	styles := themes.New(themes.Dark())
	r := &reviewer{review: change(), clash: "b.go"}
	var closed []bool
	msg := Open(r, "general-purpose-1", &styles, func(done bool) tea.Cmd { closed = append(closed, done); return nil },
		func(err error) tea.Msg { return err }, nil)()
	open, ok := msg.(overlay.Open)
	if !ok {
		t.Fatalf("Open brought %T", msg)
	}
	m := open.Layer.(*Model)
	m.SetSize(80, 24)
	if m.Place() != overlay.Screen || m.Route(keyMsg("y")) != overlay.Take || m.Agent() != "general-purpose-1" {
		t.Error("the review is not a whole-screen layer taking every key")
	}
	for _, want := range []string{"Review  [General] edit the parser", "2 files · 0 of 3 decided · from main@1b96d60", "M a.go  +2 −2", "A b.go  +1 −0", "+new a1"} {
		if !strings.Contains(screen(m), want) {
			t.Errorf("the review lacks %q:\n%s", want, screen(m))
		}
	}
	press(m, "j", "y") // the first hunk of a.go
	press(m, "n")      // the second, after the cursor moved on
	if got := screen(m); !strings.Contains(got, "2 of 3 decided") || !strings.Contains(got, "· skipped") || !strings.Contains(got, "· applied") {
		t.Fatalf("after y and n:\n%s", got)
	}
	press(m, "A")
	if got := screen(m); !strings.Contains(got, "Conflict in b.go") || !strings.Contains(got, "theirs") {
		t.Fatalf("apply all did not show the conflict:\n%s", got)
	}
	if keys := m.ShortHelp(); len(keys) != 4 || keys[0].Help().Key != "m" {
		t.Errorf("the conflict's keys: %v", keys)
	}
	rest := press(m, "m") // keeps mine, then applies the rest: nothing is left
	if len(closed) == 0 || len(rest) == 0 || !closed[0] || rest[0] != (overlay.Close{Layer: m}) {
		t.Fatalf("a review with nothing left did not close itself: %v, %v", closed, rest)
	}
	if got := strings.Join(r.actions, "; "); got != "apply 1; skip 1; apply 0; apply 2 mine; apply 0" {
		t.Errorf("actions: %s", got)
	}

	r = &reviewer{review: change()}
	m = New(r, LoadedMsg{Agent: "general-purpose-1", Review: r.review}, &styles)
	m.SetSize(80, 24)
	press(m, "D", "x") // any key but y keeps the change
	if len(r.actions) != 0 {
		t.Fatalf("D then x acted: %v", r.actions)
	}
	press(m, "D")
	if !strings.Contains(screen(m), "Discard every undecided file and hunk?") {
		t.Errorf("D does not ask first:\n%s", screen(m))
	}
	press(m, "y")
	if got := strings.Join(r.actions, "; "); got != "skip 0" {
		t.Errorf("D y: %s", got)
	}

	r = &reviewer{review: change()}
	m = New(r, LoadedMsg{Agent: "general-purpose-1", Review: r.review}, &styles)
	m.SetSize(80, 8)
	press(m, "jj", "pgdown")
	if m.cursor != 3 {
		t.Errorf("a burst of j and a page down left the cursor at %d", m.cursor)
	}
	if m.Update(LoadedMsg{Agent: "someone-else", Err: errors.New("not mine")}) != nil || strings.Contains(screen(m), "not mine") {
		t.Error("another child's reload reached the review")
	}
	if rest := press(m, "esc"); len(rest) != 1 || rest[0] != (overlay.Close{Layer: m}) {
		t.Errorf("esc: %v", rest)
	}
	if groups := m.FullHelp(); len(groups) != 1 || len(groups[0].Keys) == 0 {
		t.Errorf("full help: %v", groups)
	}
	failed := Open(&reviewer{}, "gone-1", &styles, nil, func(err error) tea.Msg { return err.Error() }, nil)()
	if failed != "no review" {
		t.Errorf("a review that cannot load brought %v", failed)
	}
}
