package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-e4e525a6/baton/engine/llm/llmtest"
	"github.com/seed-e4e525a6/baton/engine/transcript"
)

// runAt calls run in workspace with home as HOME.
func runAt(t *testing.T, workspace, home string, env []string, args ...string) runResult {
	t.Helper()
	env = append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}, env...)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), workspace, args, env, strings.NewReader(""), &stdout, &stderr, nil)
	return runResult{code, stdout.String(), stderr.String(), workspace}
}

func TestSessionsContinueAndResume(t *testing.T) {
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) {
		w.Text("answer to " + r.LastUser())
	})
	ws, home := t.TempDir(), t.TempDir()
	env := []string{"OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=sk-never-written-0123456789"}
	first := runAt(t, ws, home, env, "-p", "remember the number 42", "--output-format", "json")
	if first.code != exitOK {
		t.Fatalf("first run: exit %d: %s", first.code, first.stderr)
	}
	var doc struct {
		SessionID  string `json:"session_id"`
		Transcript string `json:"transcript"`
	}
	if err := json.Unmarshal([]byte(first.stdout), &doc); err != nil || doc.SessionID == "" || doc.Transcript == "" {
		t.Fatalf("json output lacks the session: %v %q", err, first.stdout)
	}
	if data, err := os.ReadFile(doc.Transcript); err != nil || strings.Contains(string(data), "sk-never-written") {
		t.Fatalf("transcript %s unreadable or holds the key: %v", doc.Transcript, err)
	}

	follow := runAt(t, ws, home, env, "--continue", "-p", "what number?")
	if follow.code != exitOK {
		t.Fatalf("--continue: exit %d: %s", follow.code, follow.stderr)
	}
	last := srv.Requests()[len(srv.Requests())-1]
	var history strings.Builder
	for _, m := range last.Body.Messages {
		history.WriteString(m.Content + "\n")
	}
	if !strings.Contains(history.String(), "remember the number 42") || !strings.Contains(history.String(), "answer to remember the number 42") {
		t.Fatalf("the follow-up did not carry the earlier turn:\n%s", history.String())
	}

	resumed := runAt(t, ws, home, env, "--resume", doc.SessionID, "-p", "and now?")
	if resumed.code != exitOK {
		t.Fatalf("--resume: exit %d: %s", resumed.code, resumed.stderr)
	}
	list := runAt(t, ws, home, nil, "sessions")
	if list.code != exitOK || !strings.Contains(list.stdout, doc.SessionID) || !strings.Contains(list.stdout, "remember the number 42") {
		t.Fatalf("sessions: exit %d\n%s%s", list.code, list.stdout, list.stderr)
	}
	if !strings.Contains(list.stdout, "  3  ") {
		t.Errorf("sessions should count 3 turns:\n%s", list.stdout)
	}
	if !strings.Contains(list.stdout, "most recently active first") || !strings.Contains(list.stdout, "LAST ACTIVE") ||
		!strings.Contains(list.stdout, "FOLDER") {
		t.Errorf("sessions should say its order and show each folder:\n%s", list.stdout)
	}
	other := t.TempDir()
	if here := runAt(t, other, home, nil, "sessions"); !strings.Contains(here.stdout, "no sessions yet") {
		t.Errorf("another folder lists sessions it does not own:\n%s", here.stdout)
	}
	all := runAt(t, other, home, nil, "sessions", "--all")
	if all.code != exitOK || !strings.Contains(all.stdout, doc.SessionID) || !strings.Contains(all.stdout, "in any folder") {
		t.Errorf("sessions --all: exit %d\n%s%s", all.code, all.stdout, all.stderr)
	}
	if bad := runAt(t, ws, home, nil, "--all"); bad.code != exitUsage {
		t.Errorf("--all without sessions: exit %d", bad.code)
	}

	missing := runAt(t, ws, home, env, "--resume", "20200101-0000-zzzz", "-p", "x")
	if missing.code != exitUsage || !strings.Contains(missing.stderr, "baton sessions") {
		t.Fatalf("--resume of a missing id: exit %d: %s", missing.code, missing.stderr)
	}
	both := runAt(t, ws, home, env, "--continue", "--resume", doc.SessionID, "-p", "x")
	if both.code != exitUsage {
		t.Fatalf("--continue with --resume: exit %d", both.code)
	}
}

// TestRunsPruneOncePerDay: a run removes the folder's expired sessions,
// and the runs of the next day leave newly expired ones for later, so
// start-up does not walk every stored session each time.
func TestRunsPruneOncePerDay(t *testing.T) {
	srv := llmtest.NewServer(t, func(r *llmtest.Request, w *llmtest.Writer) { w.Text("ok") })
	ws, home := t.TempDir(), t.TempDir()
	env := []string{"OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=sk-test-0123456789"}
	store := transcript.NewStore(filepath.Join(home, ".local", "state", "baton", "sessions"), nil)
	expired := func() string {
		t.Helper()
		d, err := store.Create(ws, time.Now().Add(-400*24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-400 * 24 * time.Hour)
		if err := os.Chtimes(d.Path(), old, old); err != nil {
			t.Fatal(err)
		}
		return d.Path()
	}
	first := expired()
	if r := runAt(t, ws, home, env, "-p", "one"); r.code != exitOK {
		t.Fatalf("first run: exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(first); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the expired session survived the first run: %v", err)
	}
	second := expired()
	if r := runAt(t, ws, home, env, "-p", "two"); r.code != exitOK {
		t.Fatalf("second run: exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(second); err != nil {
		t.Fatalf("the second run of the day pruned again: %v", err)
	}
}

// TestFolderLabel: baton sessions --all shows a session's folder with the
// home folder as ~, "?" for none recorded, and a stranger's path cleaned
// and cut.
func TestFolderLabel(t *testing.T) {
	for _, tc := range []struct{ workspace, home, want string }{
		{"", "/home/a", "?"},
		{"/home/a", "/home/a/", "~"},
		{"/home/a/src/app", "/home/a", "~/src/app"},
		{"/home/ab/x", "/home/a", "/home/ab/x"},
		{"/srv/\x1b[31mred", "", "/srv/red"},
	} {
		if got := folderLabel(tc.workspace, tc.home); got != tc.want {
			t.Errorf("folderLabel(%q, %q) = %q, want %q", tc.workspace, tc.home, got, tc.want)
		}
	}
	if got := folderLabel("/"+strings.Repeat("d", 100), ""); len([]rune(got)) > 60 {
		t.Errorf("a long folder is %d wide: %q", len([]rune(got)), got)
	}
}
