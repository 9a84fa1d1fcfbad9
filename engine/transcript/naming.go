package transcript

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// maxNameLen bounds a sanitized file name component, keeping paths short
// and readable whatever a workspace or agent is called.
const maxNameLen = 40

// sanitize turns s into a safe file name component: ASCII letters, digits,
// '.', '_' and '-' are kept, anything else becomes '_'. The result is never
// empty and never starts with '.', so it cannot be hidden, "." or "..".
func sanitize(s string) string {
	if len(s) > maxNameLen {
		// Keep the end, where an agent id's ordinal is, and mark the cut
		// with a hash of the whole so two long names never meet.
		sum := sha256.Sum256([]byte(s))
		s = hex.EncodeToString(sum[:3]) + "-" + s[len(s)-(maxNameLen-7):]
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		case r == '.' && i > 0:
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

// projectName names a workspace's folder: its base name, readable in a
// listing, plus a short hash of its real absolute path, so two checkouts
// called "app" never share sessions.
func projectName(workspace string) (string, error) {
	if workspace == "" {
		return "", errors.New("resolve workspace: empty path")
	}
	abs, err := filepath.Abs(workspace)
	if err != nil {
		return "", fmt.Errorf("resolve workspace %q: %w", workspace, err)
	}
	// The same folder reached through a symlink is the same project.
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	sum := sha256.Sum256([]byte(abs))
	return sanitize(filepath.Base(abs)) + "-" + hex.EncodeToString(sum[:4]), nil
}

// newSessionID returns an id like "20261125-2143-k3f9": the UTC minute the
// session started, so ids sort by time (and stay sorted across time-zone
// and daylight-saving changes), plus four random base32 characters so that
// sessions started in the same minute differ.
func newSessionID(now time.Time) string {
	return now.UTC().Format("20060102-1504") + "-" + strings.ToLower(rand.Text()[:4])
}

// validID reports whether id can name a session folder: only the
// characters sanitize keeps, so it can never walk out of the project.
func validID(id string) bool {
	return id != "" && len(id) <= maxNameLen && sanitize(id) == id
}
