package container

import (
	"debug/elf"
	"fmt"
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
	f, err := elf.Open(path)
	if err != nil {
		return "", fmt.Errorf("baton's binary %s cannot run in a container: %w", path, err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return "", fmt.Errorf("baton's binary %s is dynamically linked and cannot run in a container image: build it with CGO_ENABLED=0", path)
		}
	}
	return path, nil
}
