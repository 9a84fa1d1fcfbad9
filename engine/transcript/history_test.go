package transcript

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

func TestHistoryKeepsPromptsAcrossRuns(t *testing.T) {
	state := t.TempDir()
	store := NewStore(state+"/baton/sessions", NewRedactor("sk-live-secret-0123456789"))
	ws := t.TempDir()
	h, err := store.History(ws)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h.Path(), state+"/baton/history/") || !strings.HasSuffix(h.Path(), ".jsonl") {
		t.Fatalf("history at %s", h.Path())
	}
	if got, err := h.Load(); err != nil || len(got) != 0 {
		t.Fatalf("a new history = %v, %v", got, err)
	}
	for _, p := range []string{"first prompt", "use key sk-live-secret-0123456789 please", "", strings.Repeat("x", maxHistoryPromptLen+1), "second\nline"} {
		if _, err := h.Add(p, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	again, _ := store.History(ws) // a later run
	got, err := again.Load()
	if err != nil || len(got) != 2 || got[0] != "first prompt" || got[1] != "second\nline" {
		t.Fatalf("loaded %q, %v", got, err)
	}
	data, _ := os.ReadFile(h.Path())
	if strings.Contains(string(data), "sk-live-secret") {
		t.Fatal("a prompt holding the key was written")
	}
	if info, err := os.Stat(h.Path()); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("history file mode %v, %v", info.Mode(), err)
	}
	other, _ := store.History(t.TempDir())
	if got, _ := other.Load(); len(got) != 0 {
		t.Errorf("another project sees %q", got)
	}
}

func TestHistoryStaysBounded(t *testing.T) {
	store := NewStore(t.TempDir()+"/baton/sessions", nil)
	h, err := store.History(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for i := range MaxHistory + 40 {
		if _, err := h.Add(fmt.Sprintf("prompt %d", i), time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	appendRaw(t, h.Path(), "{not json\n")
	got, err := h.Load()
	if err != nil || len(got) != MaxHistory || got[0] != "prompt 40" || got[len(got)-1] != fmt.Sprintf("prompt %d", MaxHistory+39) {
		t.Fatalf("loaded %d prompts (%v), first %q", len(got), err, got[0])
	}
	data, _ := os.ReadFile(h.Path())
	if n := strings.Count(string(data), "\n"); n != MaxHistory {
		t.Errorf("the file keeps %d lines after loading, want %d", n, MaxHistory)
	}
}
