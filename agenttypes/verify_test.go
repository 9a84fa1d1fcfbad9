package agenttypes

import (
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestVerifyField: verify: takes one command whole (commas and all) or
// a list; an untrusted project's agent that carries one is withheld, and
// loads once the folder is trusted.
func TestVerifyField(t *testing.T) {
	tr := newTree(t)
	writeFile(t, filepath.Join(tr.folder("baton"), "one.md"), "---\nname: one\ndescription: x\ntools: Read\nverify: go test ./... -run 'A,B'\n---\nbody\n")
	writeFile(t, filepath.Join(tr.folder("baton"), "list.md"), "---\nname: list\ndescription: x\ntools: Read\nverify:\n  - go vet ./...\n  - go test ./...\n---\nbody\n")
	r := Load(tr.options())
	if typ, _ := r.Lookup("one"); !slices.Equal(typ.Verify, []string{"go test ./... -run 'A,B'"}) {
		t.Errorf("one: %q", typ.Verify)
	}
	if typ, _ := r.Lookup("list"); !slices.Equal(typ.Verify, []string{"go vet ./...", "go test ./..."}) {
		t.Errorf("list: %q", typ.Verify)
	}
	opts := tr.options()
	opts.Untrusted = &Untrusted{MaxSteps: 15, Timeout: 2 * time.Minute}
	r = Load(opts)
	if _, ok := r.Lookup("one"); ok {
		t.Error("an untrusted project's agent with a verify command loaded")
	}
	if len(r.Withheld()) != 2 {
		t.Errorf("withheld %d agents, want 2", len(r.Withheld()))
	}
}
