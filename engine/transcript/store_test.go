package transcript

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestDefaultRoot(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_STATE_HOME": "/state", "HOME": "/home/me"}, "/state/baton/sessions"},
		{map[string]string{"HOME": "/home/me"}, "/home/me/.local/state/baton/sessions"},
		{map[string]string{"XDG_STATE_HOME": "relative/state", "HOME": "/home/me"}, "/home/me/.local/state/baton/sessions"},
	} {
		got, err := DefaultRoot(func(k string) string { return tc.env[k] })
		if err != nil || got != tc.want {
			t.Errorf("DefaultRoot(%v) = %q, %v; want %q", tc.env, got, err, tc.want)
		}
	}
	if _, err := DefaultRoot(func(string) string { return "" }); err == nil {
		t.Error("no error without HOME or XDG_STATE_HOME")
	}
}

func TestCreateLaysOutProjectAndID(t *testing.T) {
	root := t.TempDir()
	store := NewStore(root, nil)
	workspace := filepath.Join(t.TempDir(), "my app!")
	if err := os.Mkdir(workspace, 0o700); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 25, 21, 43, 5, 0, time.UTC)
	d, err := store.Create(workspace, now)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^20261125-2143-[a-z2-7]{4}$`).MatchString(d.ID()) {
		t.Errorf("id = %q, want 20261125-2143-xxxx", d.ID())
	}
	rel, err := filepath.Rel(root, d.Path())
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^my_app_-[0-9a-f]{8}/` + d.ID() + `$`).MatchString(rel) {
		t.Errorf("session folder = %q, want my_app_-<hash>/<id>", rel)
	}
	// The same folder through a symlink is the same project; another
	// folder with the same name is not.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(workspace, link); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Open(link, d.ID()); err != nil {
		t.Errorf("open through a symlink: %v", err)
	}
	twin := filepath.Join(t.TempDir(), "my app!")
	if err := os.Mkdir(twin, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Open(twin, d.ID()); !errors.Is(err, ErrNoSession) {
		t.Errorf("open from a same-named folder: err = %v, want ErrNoSession", err)
	}
	if _, err := store.Create("", now); err == nil {
		t.Error("create with an empty workspace: no error")
	}
}

func TestIDsAreUnique(t *testing.T) {
	store := NewStore(t.TempDir(), nil)
	workspace := t.TempDir()
	// All in the same minute: only the random part tells them apart, and
	// collisions among 2000 draws of 2^20 are likely, so retries are
	// exercised too.
	now := time.Now()
	seen := map[string]bool{}
	for range 2000 {
		d, err := store.Create(workspace, now)
		if err != nil {
			t.Fatal(err)
		}
		if seen[d.ID()] {
			t.Fatalf("id %s handed out twice", d.ID())
		}
		seen[d.ID()] = true
	}
	project, err := store.projectDir(workspace)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := sessionIDs(project)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 2000 {
		t.Errorf("found %d session folders, want 2000", len(ids))
	}
}

func TestOpenMissingOrInvalidID(t *testing.T) {
	store, workspace, d := newSession(t, nil)
	if got, err := store.Open(workspace, d.ID()); err != nil || got.Path() != d.Path() {
		t.Fatalf("open existing: %v", err)
	}
	_, err := store.Open(workspace, "20200101-0000-aaaa")
	if !errors.Is(err, ErrNoSession) || !strings.Contains(err.Error(), "baton sessions") {
		t.Errorf("open missing: err = %v, want ErrNoSession and a hint to run baton sessions", err)
	}
	for _, id := range []string{"", "..", "../other", "a/b", ".hidden"} {
		if _, err := store.Open(workspace, id); err == nil || !strings.Contains(err.Error(), "not a session id") {
			t.Errorf("open %q: err = %v, want an invalid-id error", id, err)
		}
	}
}

func TestLatestIsMostRecentlyWritten(t *testing.T) {
	store := NewStore(t.TempDir(), nil)
	workspace := t.TempDir()
	if _, err := store.Latest(workspace); !errors.Is(err, ErrNoSession) {
		t.Fatalf("latest of a new workspace: err = %v, want ErrNoSession", err)
	}
	older, err := store.Create(workspace, time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	newer, err := store.Create(workspace, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []*Dir{older, newer} {
		writeTurn(t, writer(t, d, MainAgent), d.ID(), usage{})
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
	}
	setAge(t, older.Path(), 2*time.Hour)
	setAge(t, newer.Path(), time.Hour)
	if got, err := store.Latest(workspace); err != nil || got.ID() != newer.ID() {
		t.Fatalf("latest = %v, %v; want %s", got, err, newer.ID())
	}
	// The older session was resumed and written to: it is now the latest.
	setAge(t, older.Path(), time.Minute)
	got, err := store.Latest(workspace)
	if err != nil || got.ID() != older.ID() {
		t.Fatalf("latest = %v, %v; want %s", got, err, older.ID())
	}
	if recs := mustRead(t, got, MainAgent); dataOf[event](t, recs[0]).Prompt != older.ID() {
		t.Errorf("latest reads another session's transcript")
	}
	// A session written to later that holds no turn is not the one to
	// continue.
	empty, err := store.Create(workspace, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := empty.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := store.Latest(workspace); err != nil || got.ID() != older.ID() {
		t.Fatalf("latest = %v, %v; want %s, not the session without a turn", got, err, older.ID())
	}
}

func TestLongAgentIDsKeepTheirOwnFiles(t *testing.T) {
	d := &Dir{path: t.TempDir()}
	a := d.FileOf("security-and-performance-code-reviewer-agent-1")
	b := d.FileOf("security-and-performance-code-reviewer-agent-2")
	if a == b {
		t.Fatalf("two agents share %s", a)
	}
}
