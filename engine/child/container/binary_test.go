package container

import (
	"bytes"
	"encoding/binary"
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

// TestHasInterpreterRefusesMalformedFiles: what is not a well-formed
// 64-bit ELF executable is refused by name, never read past its bounds.
func TestHasInterpreterRefusesMalformedFiles(t *testing.T) {
	ident := func(class, data byte) []byte {
		return []byte{0x7f, 'E', 'L', 'F', class, data, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	}
	// header is an ELF header's fields after the ident, in order.
	header := func(order binary.ByteOrder, phoff uint64, phentsize, phnum uint16) []byte {
		var b bytes.Buffer
		_ = binary.Write(&b, order, struct {
			Type, Machine                                        uint16
			Version                                              uint32
			Entry, Phoff, Shoff                                  uint64
			Flags                                                uint32
			Ehsize, Phentsize, Phnum, Shentsize, Shnum, Shstrndx uint16
		}{Phoff: phoff, Phentsize: phentsize, Phnum: phnum})
		return b.Bytes()
	}
	// interp is one program header of type PT_INTERP.
	interp := func(order binary.ByteOrder) []byte {
		b := make([]byte, 56)
		order.PutUint32(b, ptInterp)
		return b
	}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	for _, c := range []struct {
		name    string
		content []byte
		dynamic bool
		err     string
	}{
		{"empty", nil, false, "not an ELF executable"},
		{"32-bit", ident(1, 1), false, "not a 64-bit ELF"},
		{"cut header", cat(ident(2, 1), []byte{2, 0}), false, "read its ELF header"},
		{"too many headers", cat(ident(2, 1), header(binary.LittleEndian, 64, 56, 1000)), false, "malformed"},
		{"tiny entries", cat(ident(2, 1), header(binary.LittleEndian, 64, 2, 1)), false, "malformed"},
		{"headers past the end", cat(ident(2, 1), header(binary.LittleEndian, 1<<20, 56, 1)), false, "read its ELF program headers"},
		{"little-endian loader", cat(ident(2, 1), header(binary.LittleEndian, 64, 56, 1), interp(binary.LittleEndian)), true, ""},
		{"big-endian loader", cat(ident(2, 2), header(binary.BigEndian, 64, 56, 1), interp(binary.BigEndian)), true, ""},
		{"big-endian static", cat(ident(2, 2), header(binary.BigEndian, 64, 56, 1), make([]byte, 56)), false, ""},
	} {
		path := filepath.Join(t.TempDir(), "f")
		if err := os.WriteFile(path, c.content, 0o755); err != nil {
			t.Fatal(err)
		}
		dynamic, err := hasInterpreter(path)
		switch {
		case c.err == "" && (err != nil || dynamic != c.dynamic):
			t.Errorf("%s: %v, %v; want dynamic %v", c.name, dynamic, err, c.dynamic)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v, want %q", c.name, err, c.err)
		}
	}
	if _, err := hasInterpreter(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Error("a missing file was read")
	}
}
