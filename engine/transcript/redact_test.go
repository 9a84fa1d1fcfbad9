package transcript

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSecretsNeverWritten(t *testing.T) {
	const apiKey = "sk-test-9f8e7d6c5b4a39281706"
	const password = `pa"ss<wo\rd>&1`
	t.Setenv("OPENAI_API_KEY", apiKey)
	t.Setenv("DB_PASSWORD", password)
	store, workspace, d := newSession(t, NewRedactor(SecretsFromEnv(os.Environ())...))

	main := writer(t, d, MainAgent)
	child := writer(t, d, "explore-1")
	appendAll(t, main, KindMeta, MainAgent, Meta{Workspace: workspace, Model: "gpt-4.1", Version: apiKey})
	appendAll(t, main, KindMessage, MainAgent, message{Role: "user", Content: "my key is " + apiKey + " and pw " + password})
	appendAll(t, child, KindEvent, "explore-1", event{Type: "tool_started", Text: `{"command":"echo ` + apiKey + `"}`})
	appendAll(t, child, KindEvent, "explore-1", map[string]any{"type": "tool_finished", "output": []string{password, apiKey + apiKey}})
	writeTurn(t, main, "use "+apiKey, usage{TotalTokens: 5})
	if err := d.Trash("explore-1", time.Now()); err != nil {
		t.Fatal(err)
	}
	// A second session written after a resume gets the same treatment.
	again, err := store.Open(workspace, d.ID())
	if err != nil {
		t.Fatal(err)
	}
	appendAll(t, writer(t, again, "plan-2"), KindMessage, "plan-2", message{Role: "tool", Content: apiKey})
	if err := again.Close(); err != nil {
		t.Fatal(err)
	}

	files := 0
	err = filepath.WalkDir(store.root, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		files++
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, secret := range []string{apiKey, password, `pa\"ss<wo\\rd>&1`} {
			if strings.Contains(string(raw), secret) {
				t.Errorf("%s contains secret %q:\n%s", path, secret, raw)
			}
		}
		if !strings.Contains(string(raw), "[redacted]") {
			t.Errorf("%s: no [redacted] marker:\n%s", path, raw)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files != 3 {
		t.Errorf("checked %d files, want main, the trashed child and plan-2", files)
	}
	msgs := mustRead(t, d, MainAgent)
	if got := dataOf[message](t, msgs[1]).Content; got != "my key is [redacted] and pw [redacted]" {
		t.Errorf("redacted message = %q", got)
	}
}

func TestSecretsFromEnv(t *testing.T) {
	environ := []string{
		"OPENAI_API_KEY=sk-aaaaaaaaaaaa",
		"github_token=ghp_bbbbbbbbbbbb",
		"AWS_SECRET_ACCESS_KEY=cccccccccccc",
		"PGPASSWORD=dddddddddddd",
		"EMPTY_TOKEN=",
		"HOME=/home/me",
		"PATH=/usr/bin:/bin",
		"MALFORMED",
	}
	got := SecretsFromEnv(environ)
	want := []string{"sk-aaaaaaaaaaaa", "ghp_bbbbbbbbbbbb", "cccccccccccc", "dddddddddddd"}
	if !slices.Equal(got, want) {
		t.Errorf("SecretsFromEnv = %v, want %v", got, want)
	}
}

func TestRedactorMatching(t *testing.T) {
	r := NewRedactor("short", "", "abcdefgh", "abcdefgh-longer")
	for in, want := range map[string]string{
		"short stays":             "short stays",
		"x abcdefgh y":            "x [redacted] y",
		"x abcdefgh-longer y":     "x [redacted] y",
		"abcdefghabcdefgh":        "[redacted][redacted]",
		"nothing secret in here.": "nothing secret in here.",
	} {
		if got := r.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
	var none *Redactor
	if got := none.Redact("abcdefgh"); got != "abcdefgh" {
		t.Errorf("nil redactor changed %q", got)
	}
}

func TestSecretSpanningStructureIsRefused(t *testing.T) {
	// A "secret" that matches across the record's own JSON would break the
	// line; the record is refused rather than written broken.
	_, _, d := newSession(t, NewRedactor(`event","agent`))
	w := writer(t, d, MainAgent)
	if err := w.Append(KindEvent, MainAgent, event{Type: "x"}); err == nil {
		t.Fatal("no error for a record the redactor would break")
	}
	appendAll(t, w, KindMessage, MainAgent, message{Role: "user", Content: "fine"})
	recs := mustRead(t, d, MainAgent)
	if len(recs) != 1 || recs[0].Kind != KindMessage {
		t.Errorf("records = %s, want only the message", fmt.Sprint(recs))
	}
}
