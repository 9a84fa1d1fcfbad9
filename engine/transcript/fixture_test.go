package transcript

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// usage mirrors the engine's llm.Usage fields that turn_ended carries.
type usage struct {
	TotalTokens int     `json:"total_tokens"`
	Cost        float64 `json:"cost"`
	CostKnown   bool    `json:"cost_known"`
}

// event is a stand-in for an engine event marshalled with its type.
type event struct {
	Type   string `json:"type"`
	Agent  string `json:"agent,omitempty"`
	Prompt string `json:"prompt,omitempty"`
	Text   string `json:"text,omitempty"`
	Status string `json:"status,omitempty"`
	Usage  *usage `json:"usage,omitempty"`
	N      int    `json:"n,omitempty"`
}

// message is a stand-in for one chat message of an agent's history.
type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// newSession returns a store rooted in a temporary folder, a workspace
// folder and a fresh session of it.
func newSession(t *testing.T, r *Redactor) (*Store, string, *Dir) {
	t.Helper()
	store := NewStore(filepath.Join(t.TempDir(), "sessions"), r)
	workspace := t.TempDir()
	d, err := store.Create(workspace, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
	})
	return store, workspace, d
}

// writer returns d's writer for agent or fails the test.
func writer(t *testing.T, d *Dir, agent string) *Writer {
	t.Helper()
	w, err := d.Writer(agent)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// appendAll appends every record or fails the test.
func appendAll(t *testing.T, w *Writer, kind, agent string, data ...any) {
	t.Helper()
	for _, v := range data {
		if err := w.Append(kind, agent, v); err != nil {
			t.Fatal(err)
		}
	}
}

// writeTurn appends one whole turn of the main agent.
func writeTurn(t *testing.T, w *Writer, prompt string, u usage) {
	t.Helper()
	appendAll(t, w, KindEvent, MainAgent,
		event{Type: "turn_started", Agent: MainAgent, Prompt: prompt},
		event{Type: "turn_ended", Agent: MainAgent, Status: "completed", Usage: &u})
}

// mustRead reads agent's records and fails on any error or damage.
func mustRead(t *testing.T, d *Dir, agent string) []Record {
	t.Helper()
	recs, damage, err := d.Read(agent)
	if err != nil {
		t.Fatal(err)
	}
	if damage != nil {
		t.Fatalf("read %s: unexpected damage: %s", agent, damage)
	}
	return recs
}

// dataOf decodes a record's data into v or fails the test.
func dataOf[T any](t *testing.T, rec Record) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(rec.Data, &v); err != nil {
		t.Fatalf("decode %s: %v", rec.Data, err)
	}
	return v
}

// setAge moves the modification times of a session folder and its files
// back by age, as if nothing had been written since.
func setAge(t *testing.T, dir string, age time.Duration) {
	t.Helper()
	old := time.Now().Add(-age)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.Chtimes(filepath.Join(dir, e.Name()), old, old); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chtimes(dir, old, old); err != nil {
		t.Fatal(err)
	}
}

// appendRaw appends s to the file at path as a crash might have left it.
func appendRaw(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
