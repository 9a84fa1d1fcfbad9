package transcript

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A stamp that is not a plain file (a symlink planted to make the claim
// truncate another file, a folder) refuses the claim and is left as it
// is, as is what it points to.
func TestClaimPruneNeverWritesThroughAStampThatIsNoFile(t *testing.T) {
	store := NewStore(t.TempDir(), nil)
	ws := t.TempDir()
	project, err := store.projectDir(ws)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(project, 0o700); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "precious.txt")
	if err := os.WriteFile(victim, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(project, pruneStamp)); err != nil {
		t.Fatal(err)
	}
	due, err := store.ClaimPrune(ws, time.Now(), time.Hour)
	if due || err == nil || !strings.Contains(err.Error(), "claim prune: ") || !strings.HasSuffix(err.Error(), ".pruned is not a regular file") {
		t.Errorf("a symlinked stamp: due %v, %v", due, err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep me" {
		t.Errorf("the file the stamp pointed to holds %q", data)
	}
}

// A state folder damaged so that a file stands where a folder should (or
// the reverse) makes every operation fail saying which one, never panic
// or hang; a listing skips what is no session.
func TestDamagedStateFolderErrorsNameTheOperation(t *testing.T) {
	state := t.TempDir()
	blocker := filepath.Join(state, "not-a-folder")
	if err := os.WriteFile(blocker, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	store := NewStore(filepath.Join(blocker, "sessions"), nil)
	ws := t.TempDir()
	now := time.Now()
	if _, err := store.Create(ws, now); err == nil || !strings.HasPrefix(err.Error(), "create session: ") {
		t.Errorf("Create: %v", err)
	}
	if _, err := store.ClaimPrune(ws, now, time.Hour); err == nil || !strings.HasPrefix(err.Error(), "claim prune: ") {
		t.Errorf("ClaimPrune: %v", err)
	}
	for name, err := range map[string]error{
		"Latest": second(store.Latest(ws)), "List": second(store.List(ws)), "Prune": second(store.Prune(context.Background(), ws, time.Hour, now)),
		"ListAll": second(store.ListAll()),
	} {
		if err == nil || !strings.Contains(err.Error(), "not a directory") {
			t.Errorf("%s: %v", name, err)
		}
	}
	h, err := store.History(ws)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Add("a prompt", now); err == nil || !strings.HasPrefix(err.Error(), "add to prompt history: ") {
		t.Errorf("History.Add: %v", err)
	}
	if _, err := store.History(""); err == nil || !strings.Contains(err.Error(), "prompt history: resolve workspace: empty path") {
		t.Errorf("History of no folder: %v", err)
	}

	// A folder where the history file should be.
	good := NewStore(filepath.Join(state, "baton", "sessions"), nil)
	h, _ = good.History(ws)
	if err := os.MkdirAll(h.Path(), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Load(); err == nil || !strings.HasPrefix(err.Error(), "load prompt history: ") {
		t.Errorf("History.Load of a folder: %v", err)
	}
	if _, err := h.Add("a prompt", now); err == nil || !strings.HasPrefix(err.Error(), "add to prompt history: ") {
		t.Errorf("History.Add to a folder: %v", err)
	}
	// Stray files beside the project folders are no sessions.
	if err := os.MkdirAll(filepath.Join(state, "baton", "sessions"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(state, "baton", "sessions", "notes.txt"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if all, err := good.ListAll(); err != nil || len(all) != 0 {
		t.Errorf("ListAll beside a stray file: %v, %v", all, err)
	}
	if _, err := good.Open(ws, "20260101-0000-abcd"); err == nil {
		t.Error("a session that is not there opened")
	}
}

// second is the error of a two-valued call.
func second[T any](_ T, err error) error { return err }

// One session damaged past reading (its transcript a folder, or a FIFO
// that would block the read forever) leaves the listing and --continue
// to the others: the listing shows what survived.
func TestDamagedSessionLeavesTheOthersListed(t *testing.T) {
	for _, damage := range []string{"folder", "fifo"} {
		t.Run(damage, func(t *testing.T) {
			store := NewStore(t.TempDir(), nil)
			ws := t.TempDir()
			now := time.Now()
			good := newSessionWithTurn(t, store, ws, now.Add(-time.Hour), "the good one")
			bad := newSessionWithTurn(t, store, ws, now, "the damaged one")
			main := filepath.Join(bad, sanitize(MainAgent)+".jsonl")
			if err := os.Remove(main); err != nil {
				t.Fatal(err)
			}
			var err error
			if damage == "folder" {
				err = os.Mkdir(main, 0o700)
			} else {
				err = syscall.Mkfifo(main, 0o600)
			}
			if err != nil {
				t.Fatal(err)
			}
			// The damaged session is the most recently written.
			setAge(t, good, time.Hour)
			sums, err := store.List(ws)
			if err != nil || len(sums) != 1 || sums[0].Dir != good {
				t.Fatalf("List: %+v, %v; want the good session alone", sums, err)
			}
			all, err := store.ListAll()
			if err != nil || len(all) != 1 {
				t.Errorf("ListAll: %+v, %v", all, err)
			}
			latest, err := store.Latest(ws)
			if err != nil || latest.Path() != good {
				t.Errorf("Latest: %v, %v; want the good session", latest, err)
			}
			if _, _, err := readFile(main); err == nil {
				t.Error("a transcript that is no file was read")
			}
		})
	}
}

// newSessionWithTurn records a session with one turn and returns its
// folder.
func newSessionWithTurn(t *testing.T, store *Store, ws string, at time.Time, prompt string) string {
	t.Helper()
	d, err := store.Create(ws, at)
	if err != nil {
		t.Fatal(err)
	}
	writeTurn(t, writer(t, d, MainAgent), prompt, usage{TotalTokens: 10})
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	return d.Path()
}

// A session folder removed under a running baton (a prune from another
// process, a person's rm), or a folder where a transcript should be,
// makes its writes, trash and lock fail saying so.
func TestSessionFolderRemovedUnderTheWriter(t *testing.T) {
	store := NewStore(t.TempDir(), nil)
	d, err := store.Create(t.TempDir(), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Trash("explore-1", time.Now()); err == nil || !strings.HasPrefix(err.Error(), "trash transcript: ") {
		t.Errorf("trash of a transcript never written: %v", err)
	}
	if err := os.Mkdir(d.FileOf("explore-3"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Writer("explore-3"); err == nil || !strings.HasPrefix(err.Error(), "open transcript: ") {
		t.Errorf("a writer onto a folder: %v", err)
	}
	if err := os.RemoveAll(d.Path()); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Writer("explore-2"); err == nil || !strings.HasPrefix(err.Error(), "open transcript: ") {
		t.Errorf("a writer in a removed session: %v", err)
	}
	if _, _, err := d.Read(MainAgent); err == nil {
		t.Error("a removed transcript was read")
	}
	if err := d.Lock(); err == nil || !strings.HasPrefix(err.Error(), "lock session ") {
		t.Errorf("a lock in a removed session: %v", err)
	}
}

// Values too short to be a secret are not redacted: replacing every "1"
// or "ab" in a transcript would mangle it and protect nothing.
func TestShortValuesAreNoSecrets(t *testing.T) {
	r := NewRedactor("ab", "1", "")
	if got := r.Redact("ab 1 abc"); got != "ab 1 abc" {
		t.Errorf("short values redacted: %q", got)
	}
}
