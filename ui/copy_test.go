package ui

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/seed-e4e525a6/baton/ui/status"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// /copy writes the last answer to the terminal as OSC 52 and says so;
// /copy code copies the last fenced block.
func TestCopyUsesOSC52(t *testing.T) {
	var out bytes.Buffer
	opts := Options{Workspace: "/work/app", Theme: "dark", Terminal: &Terminal{out: &out}}
	d := newDriverFor(t, newFakeSession(), opts, 120, 40)
	d.command("/copy")
	if !strings.Contains(d.m.status.Text(), "copy: there is no last answer yet") || out.Len() != 0 {
		t.Fatalf("before any answer: %q, wrote %q", d.m.status.Text(), out.String())
	}
	answer := "Run this:\n\n```go\nfmt.Println(1)\n```\n\nthen this:\n\n~~~sh\ngo test ./...\n~~~\n"
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "how?"})
	d.emit(event.TextDelta{Meta: mainMeta, Text: answer})
	d.emit(event.MessageDone{Meta: mainMeta, Text: answer})
	d.emit(event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "and?"})
	d.emit(event.MessageDone{Meta: mainMeta, Text: "Done, no code here."})
	d.emit(event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})

	d.command("/copy")
	if got := osc52(t, out.String()); got != "Done, no code here." {
		t.Fatalf("/copy sent %q", got)
	}
	if !strings.Contains(d.screen(), "copied the last answer (19 characters) to the clipboard via OSC 52") {
		t.Errorf("/copy did not say so:\n%s", d.screen())
	}
	out.Reset()
	d.command("/copy code")
	if got := osc52(t, out.String()); got != "go test ./..." {
		t.Fatalf("/copy code sent %q", got)
	}
	d.command("/copy all")
	if d.m.status.Level() != status.Error {
		t.Errorf("/copy all: %q", d.m.status.Text())
	}
}

// osc52 decodes the one OSC 52 sequence in s.
func osc52(t *testing.T, s string) string {
	t.Helper()
	body, ok := strings.CutPrefix(s, "\x1b]52;c;")
	body, ok2 := strings.CutSuffix(body, "\x07")
	if !ok || !ok2 {
		t.Fatalf("not one OSC 52 sequence: %q", s)
	}
	data, err := base64.StdEncoding.DecodeString(body)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// /copy code keeps the code's tabs (a Makefile recipe or gofmt'ed Go
// needs them), while the screen draws them as spaces and no escape of
// the model's reaches the clipboard.
func TestCopyCodeKeepsTabs(t *testing.T) {
	var out bytes.Buffer
	opts := Options{Workspace: "/work/app", Theme: "dark", Terminal: &Terminal{out: &out}}
	d := newDriverFor(t, newFakeSession(), opts, 80, 30)
	answer := "Add this:\n\n```make\nbuild:\n\tgo build \x1b[31m./...\n```\n"
	d.emit(event.TurnStarted{Meta: mainMeta, Prompt: "a make rule?"})
	d.emit(event.TextDelta{Meta: mainMeta, Text: answer})
	d.emit(event.MessageDone{Meta: mainMeta, Text: answer})
	d.emit(event.TurnEnded{Meta: mainMeta, Status: event.StatusCompleted})
	if screen := d.screen(); !strings.Contains(screen, "    go build ./...") || strings.Contains(screen, "\t") {
		t.Errorf("the tab is not drawn as spaces:\n%s", screen)
	}
	d.checkFits()
	d.command("/copy code")
	if got := osc52(t, out.String()); got != "build:\n\tgo build ./..." {
		t.Fatalf("/copy code sent %q, want the tab kept and the escape gone", got)
	}
}
