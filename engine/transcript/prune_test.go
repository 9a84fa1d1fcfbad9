package transcript

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestPruneByAgeAndTrash(t *testing.T) {
	root := t.TempDir()
	store := NewStore(root, nil)
	day := 24 * time.Hour
	session := func(workspace string, age time.Duration, agents ...string) *Dir {
		d, err := store.Create(workspace, time.Now().Add(-age))
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range agents {
			writeTurn(t, writer(t, d, a), "hello", usage{})
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		return d
	}
	appA, appB := t.TempDir(), t.TempDir()
	oldA := session(appA, 40*day, MainAgent, "explore-1")
	recentA := session(appA, 0, MainAgent, "explore-1", "plan-2")
	oldB := session(appB, 31*day, MainAgent)
	// Started long ago but resumed yesterday: kept.
	resumedB := session(appB, 60*day, MainAgent)
	setAge(t, oldA.Path(), 40*day)
	setAge(t, oldB.Path(), 31*day)
	setAge(t, resumedB.Path(), day)
	if err := recentA.Trash("explore-1", time.Now()); err != nil {
		t.Fatal(err)
	}
	// Stray files in the store are not sessions and are left alone.
	stray := filepath.Join(root, "README")
	if err := os.WriteFile(stray, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}

	removed, err := store.Prune(context.Background(), appA, 30*day, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if removed != 2 {
		t.Errorf("removed %d, want 1 session and 1 trash file", removed)
	}
	if _, err := os.Stat(oldA.Path()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("old session %s still there (%v)", oldA.ID(), err)
	}
	if trash, _ := filepath.Glob(filepath.Join(recentA.Path(), "*.deleted.*")); len(trash) != 0 {
		t.Errorf("trash left: %v", trash)
	}
	// Another project's sessions are its own business, however old.
	for _, f := range []string{recentA.FileOf(MainAgent), recentA.FileOf("plan-2"), oldB.FileOf(MainAgent), resumedB.FileOf(MainAgent), stray} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("kept file: %v", err)
		}
	}
	if _, err := store.Prune(context.Background(), appB, 30*day, time.Now()); err != nil {
		t.Fatal(err)
	}
	sums, err := store.List(appB)
	if err != nil || len(sums) != 1 || sums[0].ID != resumedB.ID() {
		t.Errorf("appB after its prune = %+v, %v; want only the resumed session", sums, err)
	}
	if n, err := store.Prune(context.Background(), appA, 30*day, time.Now()); err != nil || n != 0 {
		t.Errorf("second prune removed %d, %v; want 0", n, err)
	}
}

// TestPruneKeepsLockedSession: a session another process writes is kept
// however old it looks, and pruned once released.
func TestPruneKeepsLockedSession(t *testing.T) {
	store := NewStore(t.TempDir(), nil)
	app := t.TempDir()
	d, err := store.Create(app, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Lock(); err != nil {
		t.Fatal(err)
	}
	setAge(t, d.Path(), 90*24*time.Hour)
	if n, err := store.Prune(context.Background(), app, time.Hour, time.Now()); err != nil || n != 0 {
		t.Fatalf("prune of a locked session removed %d, %v", n, err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	setAge(t, d.Path(), 90*24*time.Hour)
	if n, err := store.Prune(context.Background(), app, time.Hour, time.Now()); err != nil || n != 1 {
		t.Fatalf("prune after release removed %d, %v; want 1", n, err)
	}
}

func TestPruneEdgeCases(t *testing.T) {
	store := NewStore(filepath.Join(t.TempDir(), "never-created"), nil)
	if n, err := store.Prune(context.Background(), t.TempDir(), time.Hour, time.Now()); err != nil || n != 0 {
		t.Errorf("prune of a missing root = %d, %v; want 0, nil", n, err)
	}
	if _, err := store.Prune(context.Background(), t.TempDir(), 0, time.Now()); err == nil {
		t.Error("prune with max age 0: no error")
	}
	for name, want := range map[string]bool{
		"explore-1.jsonl.deleted.1795000000": true,
		"main.jsonl":                         false,
		"x.deleted.":                         false,
		"x.deleted.12a":                      false,
		".deleted.5":                         false,
	} {
		if got := isTrash(name); got != want {
			t.Errorf("isTrash(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestClaimPrune: a project is due once per interval, again when the
// interval has passed, and a stamp from the future does not stop pruning.
func TestClaimPrune(t *testing.T) {
	store := NewStore(t.TempDir(), nil)
	ws := t.TempDir()
	now := time.Now()
	claim := func(at time.Time) bool {
		t.Helper()
		due, err := store.ClaimPrune(ws, at, 24*time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		return due
	}
	if !claim(now) {
		t.Fatal("a project never pruned is not due")
	}
	if claim(now.Add(time.Hour)) {
		t.Fatal("due again an hour after the last prune")
	}
	if !claim(now.Add(25 * time.Hour)) {
		t.Fatal("not due a day after the last prune")
	}
	if !claim(now) {
		t.Fatal("a stamp a day in the future stopped pruning")
	}
	if ids, err := store.List(ws); err != nil && !errors.Is(err, ErrNoSession) || len(ids) != 0 {
		t.Fatalf("the stamp is listed as a session: %v, %v", ids, err)
	}
}
