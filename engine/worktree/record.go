package worktree

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// The states a worktree's record names.
const (
	// StateRunning: its child runs, or baton stopped while it ran.
	StateRunning = "running"
	// StatePending: its child ended and the change waits for review.
	StatePending = "pending"
	// StateKept: the change is committed on Branch for the person.
	StateKept = "kept"
)

// Record is what baton writes beside a worktree, so the worktree can be
// found and recovered after the session that made it ends, even by a
// crash.
type Record struct {
	Dir         string    `json:"dir"`
	Repo        string    `json:"repo"`
	Base        string    `json:"base"`
	Branch      string    `json:"branch,omitempty"`
	Session     string    `json:"session"`
	Agent       string    `json:"agent"`
	Description string    `json:"description"`
	State       string    `json:"state"`
	Created     time.Time `json:"created"`
	// Decisions are what the person decided so far in the review of the
	// change, by file: one decision per hunk, or one for a file decided
	// whole; a change reopened after the session ended keeps them.
	Decisions map[string][]string `json:"decisions,omitempty"`
}

// Location is where a child's worktree lives: root/<project>/<session>/
// <child>, never inside the repository.
func Location(root, repoTop, session, child string) string {
	sum := sha256.Sum256([]byte(repoTop))
	project := clean(filepath.Base(repoTop)) + "-" + hex.EncodeToString(sum[:4])
	return filepath.Join(root, project, clean(session), clean(child))
}

// clean keeps a path element to letters, digits, '-', '_' and '.'.
func clean(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 128 && (r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return r
		}
		return '_'
	}, s)
	if strings.Trim(s, ".") == "" {
		return "_" + s
	}
	return s
}

// Save writes the record next to its worktree.
func (r Record) Save() error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("save worktree record: %w", err)
	}
	if err := os.WriteFile(r.Dir+".json", data, 0o600); err != nil {
		return fmt.Errorf("save worktree record: %w", err)
	}
	return nil
}

// escapeGlob makes a folder's name match itself in a glob: a state
// folder under a home named "x[1]" holds records too.
func escapeGlob(dir string) string {
	var b strings.Builder
	for _, r := range dir {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Forget removes the record of a worktree that was removed.
func (r Record) Forget() {
	_ = os.Remove(r.Dir + ".json")
	_ = os.Remove(filepath.Dir(r.Dir))
}

// List reads every record under root whose worktree still exists, oldest
// first; records of removed worktrees are deleted on the way.
func List(root string) ([]Record, error) {
	matches, err := filepath.Glob(filepath.Join(escapeGlob(root), "*", "*", "*.json"))
	if err != nil {
		return nil, fmt.Errorf("list worktrees: %w", err)
	}
	var out []Record
	for _, m := range matches {
		data, err := os.ReadFile(m)
		if err != nil {
			continue
		}
		var r Record
		if json.Unmarshal(data, &r) != nil || r.Dir+".json" != m {
			continue
		}
		if _, err := os.Lstat(r.Dir); errors.Is(err, fs.ErrNotExist) {
			r.Forget()
			continue
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out, nil
}
