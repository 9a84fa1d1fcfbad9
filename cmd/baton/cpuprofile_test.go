package main

import (
	"os"
	"path/filepath"
	"runtime/pprof"
	"testing"
)

// TestCPUProfileWritesAProfile starts and stops the BATON_CPUPROFILE
// profile: the file holds a profile (gzipped, as pprof writes it); an
// unwritable path is a clear error; no path does nothing.
func TestCPUProfileWritesAProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	stop, err := startCPUProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Fatalf("not a profile: % x", data[:min(len(data), 8)])
	}
	if _, err := startCPUProfile(filepath.Join(t.TempDir(), "missing", "cpu.prof")); err == nil {
		pprof.StopCPUProfile()
		t.Error("an unwritable path gave no error")
	}
	stop, err = startCPUProfile("")
	if err != nil {
		t.Fatal(err)
	}
	stop()
}
