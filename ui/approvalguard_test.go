package ui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// TestCardArmsOnlyAfterAQuietPeriod: while keys keep coming the card's
// timer is set again, its hints stay dimmed and keys go into the input;
// a quiet period arms it.
func TestCardArmsOnlyAfterAQuietPeriod(t *testing.T) {
	d := newDriver(t, 100, 30)
	d.hold = true
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	answers := askTool(t, d, "p1", mainMeta)
	if !strings.Contains(d.screen(), "the card takes keys once typing pauses") || strings.Contains(d.screen(), "y allow once") {
		t.Fatalf("an unarmed card shows its answers:\n%s", d.screen())
	}
	d.typeText("ya")
	d.fire() // the first timer finds keys were typed: it waits again
	if d.m.approvals.Armed() || len(d.timers) != 1 {
		t.Fatalf("armed %v with %d timers after typing", d.m.approvals.Armed(), len(d.timers))
	}
	d.typeText("n")
	d.fire()
	d.fire()
	if !d.m.approvals.Armed() || !strings.Contains(d.screen(), "y allow once") {
		t.Fatalf("the card did not arm after a quiet period:\n%s", d.screen())
	}
	if got := d.m.input.Value(); got != "yan" || len(answers) != 0 {
		t.Fatalf("box %q, %d answers; typing must land in the box and answer nothing", got, len(answers))
	}
	d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y"), Paste: true})
	if len(answers) != 0 {
		t.Fatal("a paste answered an armed card")
	}
	d.keys("y")
	if got := (<-answers).Decision; got != event.Allow {
		t.Fatalf("answered %q", got)
	}
}

// TestNextCardArmsAfresh: answering one card does not arm the next; a
// key typed right after lands in the input.
func TestNextCardArmsAfresh(t *testing.T) {
	d := newDriver(t, 100, 30)
	d.hold = true
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	first := askTool(t, d, "p1", mainMeta)
	second := askTool(t, d, "p2", mainMeta)
	d.fire()
	d.keys("y")
	<-first
	d.typeText("a")
	if len(second) != 0 || d.m.input.Value() != "a" {
		t.Fatalf("the next card took a key typed right after: box %q", d.m.input.Value())
	}
}

// TestAlwaysSaysWhatWasAdded, for a command's prefix and a file's folder.
func TestAlwaysSaysWhatWasAdded(t *testing.T) {
	d := newDriver(t, 120, 30)
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "go"})
	answers := askTool(t, d, "p1", mainMeta)
	if !strings.Contains(d.screen(), `a always allow "go test …"`) {
		t.Fatalf("the card does not offer the prefix:\n%s", d.screen())
	}
	d.keys("a")
	got := <-answers
	if got.Decision != event.AllowAlways || strings.Join(got.Rules, ",") != "run_command(go test:*)" {
		t.Fatalf("answer %+v", got)
	}
	if !strings.Contains(d.m.status.Text(), "added run_command(go test:*)") {
		t.Errorf("status %q does not say what was added", d.m.status.Text())
	}
	req := &event.ApprovalRequest{ID: "p2", Kind: event.ApproveTool, Tool: "write_file", Args: `{"path":"docs/a.md"}`,
		Always: []string{"write_file(docs/a.md)"}, AlwaysFolder: []string{"write_file(docs/**)"},
		AlwaysLabel: "docs/a.md", AlwaysFolderLabel: "docs/**"}
	folder := newRequest(t, req)
	d.emit(event.ApprovalRequested{Meta: mainMeta, Request: req})
	d.keys("A")
	if got := <-folder; strings.Join(got.Rules, ",") != "write_file(docs/**)" {
		t.Fatalf("A chose %v", got.Rules)
	}
}

// TestWaitingCardCallsThePersonBack: losing focus with a card waiting,
// or the card's timer, rings the bell and sets the title; "off" does
// neither; a long turn calls too.
func TestWaitingCardCallsThePersonBack(t *testing.T) {
	for _, mode := range []string{"", "bell", "title", "off"} {
		t.Run("notify="+mode, func(t *testing.T) {
			var bell bytes.Buffer
			d := newDriverFor(t, newFakeSession(), Options{Workspace: "/w", Theme: "dark", Notify: mode, Bell: &bell}, 100, 30)
			d.hold = true
			d.emit(event.TurnStarted{Meta: event.Meta{Agent: event.MainAgent, Time: t0}, Prompt: "go"})
			askTool(t, d, "p1", mainMeta)
			d.fire() // arms
			d.send(d.m.clock.spinner.Tick())
			if bell.Len() != 0 || d.m.notify.titled {
				t.Fatal("called before the card waited 10 s")
			}
			d.m.clock.now = func() time.Time { return t0.Add(14 * time.Second) }
			d.send(d.m.clock.spinner.Tick()) // the animation clock, 11 s later
			wantBell := mode == "" || mode == "bell"
			if rang := bell.String() == "\a"; rang != wantBell {
				t.Errorf("bell rang %v, want %v", rang, wantBell)
			}
			if titled := d.m.notify.titled; titled != (mode == "" || mode == "title") {
				t.Errorf("title set %v", titled)
			}
			d.send(tea.FocusMsg{})
			if d.m.notify.titled {
				t.Error("coming back did not clear the title")
			}
			bell.Reset()
			d.send(tea.BlurMsg{})
			if rang := bell.String() == "\a"; rang != wantBell {
				t.Errorf("blur with a card waiting: bell %v, want %v", rang, wantBell)
			}
			bell.Reset()
			d.emit(event.TurnEnded{Meta: event.Meta{Agent: event.MainAgent, Time: t0.Add(31 * time.Second)}, Status: event.StatusCompleted})
			if rang := bell.String() == "\a"; rang != wantBell {
				t.Errorf("a 31 s turn: bell %v, want %v", rang, wantBell)
			}
		})
	}
}

// TestPermissionsCommand lists, adds, removes and saves rules.
func TestPermissionsCommand(t *testing.T) {
	var saved []event.PermissionRule
	s := newFakeSession()
	opts := Options{Workspace: "/w", Theme: "dark", SaveRules: func(list []event.PermissionRule) (string, error) {
		saved = list
		return "/home/me/.config/baton/config.toml", nil
	}}
	d := newDriverFor(t, s, opts, 120, 40)
	run := func(line string) {
		d.typeText(line)
		d.keys("enter")
	}
	run("/permissions allow run_command(go test:*)")
	if !strings.Contains(d.screen(), "allow run_command(go test:*)") || !strings.Contains(d.screen(), "session") {
		t.Fatalf("the added rule is not listed:\n%s", d.screen())
	}
	run("/permissions save")
	if len(saved) != 1 || !strings.Contains(d.m.status.Text(), "saved") {
		t.Fatalf("save wrote %v, status %q", saved, d.m.status.Text())
	}
	run("/permissions remove allow run_command(go test:*)")
	if len(s.Rules()) != 0 || !strings.Contains(d.m.status.Text(), "removed") {
		t.Fatalf("remove left %v, status %q", s.Rules(), d.m.status.Text())
	}
	run("/permissions allow run_command(go test")
	if !strings.Contains(d.m.status.Text(), "must end with ')'") {
		t.Errorf("a bad rule: status %q", d.m.status.Text())
	}
	run("/permissions frobnicate")
	if !strings.Contains(d.m.status.Text(), "usage /permissions") {
		t.Errorf("usage: status %q", d.m.status.Text())
	}
}
