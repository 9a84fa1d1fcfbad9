// Package contextfile reads the instruction files a project hands its
// agents (AGENTS.md, CLAUDE.md): only as regular files that resolve inside
// the workspace, cut at a cap, with a note for the person when one was
// cut or skipped; and, for files in sub-folders, once each, the first
// time an agent touches a path below them.
package contextfile

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/seed-e4e525a6/baton/agenttypes/repofile"
)

// Read returns the text of a context file inside root, and a
// note for the person when the file was cut or skipped: only a regular
// file resolving inside the workspace is read, so a link to
// /proc/self/environ, a device or a FIFO never reaches a prompt or hangs
// the start. At most limit bytes are taken (Limits.ContextFileBytes). A
// missing file is "" with no note.
func Read(root, path string, limit int) (text, note string) {
	name := displayName(root, path)
	f, err := repofile.Read(root, path, int64(limit))
	var skip *repofile.SkipError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", ""
	case errors.As(err, &skip):
		return "", fmt.Sprintf("skipped %s: %s; it is not in the prompt", name, skip.Reason)
	case err != nil:
		return "", fmt.Sprintf("%s skipped: %v", name, err)
	}
	data := f.Data
	if f.Cut {
		data = trimPartialRune(data)
		note = fmt.Sprintf("%s is %d KiB; only its first %d KiB are in the prompt", name, f.Size>>10, limit>>10)
	}
	text = strings.TrimSpace(string(data))
	if f.Cut && text != "" {
		text += fmt.Sprintf("\n… [cut: %s is larger than %d KiB]", name, limit>>10)
	}
	return text, note
}

// displayName is path relative to root, as the person knows the file.
func displayName(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return path
}

// trimPartialRune drops the bytes of a character the cap cut in half.
func trimPartialRune(b []byte) []byte {
	for i := 0; i < utf8.UTFMax-1 && len(b) > 0; i++ {
		if r, size := utf8.DecodeLastRune(b); r != utf8.RuneError || size != 1 {
			break
		}
		b = b[:len(b)-1]
	}
	return b
}
