package repofile

import (
	"fmt"
	"os"
)

// OpenRegular opens path for reading only if what opens is a regular
// file. The type is checked on the open file, and the open itself never
// blocks, so a FIFO or terminal swapped in after a tool looked at the path
// is refused instead of hanging the call. The path's confinement is the
// caller's job.
func OpenRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, toolOpenFlags, 0)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file (%s)", path, describe(info.Mode()))
	}
	return f, nil
}
