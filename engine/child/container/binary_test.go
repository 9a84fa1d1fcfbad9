package container

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStaticBinary tells a static executable from a dynamic one and from
// what is not an executable at all.
func TestStaticBinary(t *testing.T) {
	dynamic := ""
	for _, p := range []string{"/bin/sh", "/usr/bin/env", "/bin/ls"} {
		if d, err := hasInterpreter(p); err == nil && d {
			dynamic = p
			break
		}
	}
	if dynamic == "" {
		t.Skip("no dynamically linked program found to compare with")
	}
	if _, err := staticBinary(dynamic); err == nil || !strings.Contains(err.Error(), "dynamically linked") {
		t.Fatalf("%s: %v", dynamic, err)
	}
	text := filepath.Join(t.TempDir(), "baton")
	if err := os.WriteFile(text, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := staticBinary(text); err == nil || !strings.Contains(err.Error(), "not an ELF") {
		t.Fatalf("a script: %v", err)
	}
	static := filepath.Join(t.TempDir(), "static")
	build := exec.Command("go", "build", "-o", static, "./testdata/static")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v %s", err, out)
	}
	if got, err := staticBinary(static); err != nil || got != static {
		t.Fatalf("a static binary: %q %v", got, err)
	}
}
