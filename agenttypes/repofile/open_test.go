package repofile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestOpenRegularRefusesAFIFOWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if f, err := OpenRegular(fifo); err == nil {
		f.Close()
		t.Fatal("a FIFO was opened as a regular file")
	}
	if f, err := OpenRegular("/dev/zero"); err == nil {
		f.Close()
		t.Fatal("a device was opened as a regular file")
	}
	plain := filepath.Join(dir, "plain.txt")
	if err := os.WriteFile(plain, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(plain, link); err != nil {
		t.Fatal(err)
	}
	f, err := OpenRegular(link)
	if err != nil {
		t.Fatalf("a symlink to a regular file: %v", err)
	}
	f.Close()
}
