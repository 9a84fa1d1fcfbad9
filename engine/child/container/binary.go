package container

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// staticBinary returns path, or this program when empty, once it is a
// statically linked executable, which runs in any image.
func staticBinary(path string) (string, error) {
	if path == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("find baton's binary: %w", err)
		}
		path = exe
	}
	dynamic, err := hasInterpreter(path)
	if err != nil {
		return "", fmt.Errorf("baton's binary %s cannot run in a container: %w", path, err)
	}
	if dynamic {
		return "", fmt.Errorf("baton's binary %s is dynamically linked and cannot run in a container image: build it with CGO_ENABLED=0", path)
	}
	return path, nil
}

// ptInterp is the program header naming an ELF file's dynamic loader.
const ptInterp = 3

// maxProgramHeaders bounds the headers read; a Go binary has about ten.
const maxProgramHeaders = 256

// hasInterpreter reports whether the 64-bit ELF executable at path names
// a dynamic loader. It reads the program headers by hand: debug/elf
// links DWARF and two decompressors into baton for one flag.
func hasInterpreter(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	var ident [16]byte
	if _, err := io.ReadFull(f, ident[:]); err != nil || string(ident[:4]) != "\x7fELF" {
		return false, errors.New("not an ELF executable")
	}
	if ident[4] != 2 { // ELFCLASS64
		return false, errors.New("not a 64-bit ELF executable")
	}
	var order binary.ByteOrder = binary.LittleEndian
	if ident[5] == 2 {
		order = binary.BigEndian
	}
	var head struct {
		Type, Machine                                        uint16
		Version                                              uint32
		Entry, Phoff, Shoff                                  uint64
		Flags                                                uint32
		Ehsize, Phentsize, Phnum, Shentsize, Shnum, Shstrndx uint16
	}
	if err := binary.Read(f, order, &head); err != nil {
		return false, fmt.Errorf("read its ELF header: %w", err)
	}
	if head.Phnum > maxProgramHeaders || head.Phentsize < 4 {
		return false, errors.New("its ELF program headers are malformed")
	}
	for i := range int64(head.Phnum) {
		var typ uint32
		if _, err := f.Seek(int64(head.Phoff)+i*int64(head.Phentsize), io.SeekStart); err != nil {
			return false, err
		}
		if err := binary.Read(f, order, &typ); err != nil {
			return false, fmt.Errorf("read its ELF program headers: %w", err)
		}
		if typ == ptInterp {
			return true, nil
		}
	}
	return false, nil
}
