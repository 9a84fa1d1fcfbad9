// Package lastbytes keeps the last bytes a program wrote, such as the last
// words of a sub-process on its standard error, for the error that
// reports its end.
package lastbytes

import (
	"strings"
	"sync"
)

// Writer keeps the last Max bytes written to it; it is safe for
// concurrent use.
type Writer struct {
	// Max is how many bytes are kept.
	Max int

	mu  sync.Mutex
	buf []byte
}

// Write implements io.Writer.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if over := len(w.buf) - w.Max; over > 0 {
		w.buf = append(w.buf[:0], w.buf[over:]...)
	}
	return len(p), nil
}

// String returns what was kept, as valid UTF-8.
func (w *Writer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.ToValidUTF8(string(w.buf), "")
}

// LastLine is the last non-empty line kept, or "" (nil Writer included).
func (w *Writer) LastLine() string {
	if w == nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(w.String()), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
