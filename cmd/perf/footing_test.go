package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestSameFootingRunsCopiesOfBoth: the built baton and the -against one
// are both replaced by executable copies of the same bytes in the work
// folder, so neither runs from the file the linker wrote.
func TestSameFootingRunsCopiesOfBoth(t *testing.T) {
	dir := t.TempDir()
	built, other := filepath.Join(dir, "baton"), filepath.Join(dir, "main-baton")
	for path, text := range map[string]string{built: "built bytes", other: "main's bytes"} {
		if err := os.WriteFile(path, []byte(text), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o700); err != nil {
		t.Fatal(err)
	}
	saved := againstBinary
	t.Cleanup(func() { againstBinary = saved })
	againstBinary = other
	tl := tools{baton: built}
	if err := sameFooting(&tl, work); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{tl.baton: "built bytes", againstBinary: "main's bytes"} {
		if filepath.Dir(path) != work {
			t.Errorf("%s is not a copy in the work folder", path)
		}
		data, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(data, []byte(want)) {
			t.Errorf("%s = %q, %v; want %q", path, data, err, want)
		}
		if info, err := os.Stat(path); err != nil || info.Mode().Perm()&0o100 == 0 {
			t.Errorf("%s is not executable: %v", path, err)
		}
	}
	if _, err := copyFile(filepath.Join(dir, "missing"), filepath.Join(work, "x")); err == nil {
		t.Error("copying a missing binary succeeded")
	}
}

// TestSameFootingWritesWholeCopies: the cases that run a binary written in
// one go get copies of both binaries' bytes of their own.
func TestSameFootingWritesWholeCopies(t *testing.T) {
	dir := t.TempDir()
	built, other := filepath.Join(dir, "baton"), filepath.Join(dir, "main-baton")
	for path, text := range map[string]string{built: "built bytes", other: "main's bytes"} {
		if err := os.WriteFile(path, []byte(text), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	saved := againstBinary
	t.Cleanup(func() { againstBinary = saved })
	againstBinary = other
	tl := tools{baton: built}
	if err := sameFooting(&tl, dir); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{tl.wholeBaton: "built bytes", tl.wholeAgainst: "main's bytes"} {
		if path == "" || path == built || path == other || path == tl.baton || path == againstBinary {
			t.Fatalf("whole copy %q is not a file of its own", path)
		}
		if data, err := os.ReadFile(path); err != nil || string(data) != want {
			t.Errorf("%s = %q, %v; want %q", path, data, err, want)
		}
	}
}

// TestLinksAsMakeBuild: cmd/perf links baton with the flags make build
// gives it, so what it measures is what make build and make install
// produce.
func TestLinksAsMakeBuild(t *testing.T) {
	makefile, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	want := "LINK := $(if $(filter linux,$(shell $(GO) env GOOS)),-ldflags=" + linkFlags("linux") + ")"
	if !bytes.Contains(makefile, []byte(want)) {
		t.Errorf("the Makefile's LINK is not %q", want)
	}
	if linkFlags("darwin") != "" {
		t.Errorf("darwin gets %q; the text address is Linux's", linkFlags("darwin"))
	}
}
