package transcript

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Prune removes, across all projects, every session whose last activity
// is older than maxAge, and every trashed transcript (see Dir.Trash) of the
// sessions it keeps. It returns how many sessions and trash files it
// removed. Project folders are left in place, even empty, so that a baton
// starting in that project at the same moment never loses its parent
// folder between creating it and creating its session.
func (s *Store) Prune(maxAge time.Duration, now time.Time) (int, error) {
	if maxAge <= 0 {
		return 0, fmt.Errorf("prune sessions: max age must be positive, got %s", maxAge)
	}
	projects, err := os.ReadDir(s.root)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("prune sessions: %w", err)
	}
	removed := 0
	for _, p := range projects {
		if !p.IsDir() {
			continue
		}
		n, err := pruneProject(filepath.Join(s.root, p.Name()), now.Add(-maxAge))
		removed += n
		if err != nil {
			return removed, fmt.Errorf("prune sessions: %w", err)
		}
	}
	return removed, nil
}

// pruneProject removes a project's sessions last active before cutoff and
// the trash of the others.
func pruneProject(project string, cutoff time.Time) (int, error) {
	ids, err := sessionIDs(project)
	if err != nil {
		return 0, err
	}
	removed := 0
	for _, id := range ids {
		path := filepath.Join(project, id)
		last, err := lastActivity(path)
		if err != nil {
			return removed, err
		}
		if last.Before(cutoff) {
			if err := os.RemoveAll(path); err != nil {
				return removed, err
			}
			removed++
			continue
		}
		n, err := removeTrash(path)
		removed += n
		if err != nil {
			return removed, err
		}
	}
	return removed, nil
}

// removeTrash deletes a session's trashed transcripts.
func removeTrash(session string) (int, error) {
	entries, err := os.ReadDir(session)
	if err != nil {
		return 0, err
	}
	removed := 0
	for _, e := range entries {
		if e.IsDir() || !isTrash(e.Name()) {
			continue
		}
		if err := os.Remove(filepath.Join(session, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, err
		}
		removed++
	}
	return removed, nil
}

// isTrash reports whether name is "<file>.deleted.<unix time>".
func isTrash(name string) bool {
	i := strings.LastIndex(name, trashMarker)
	if i <= 0 {
		return false
	}
	_, err := strconv.ParseInt(name[i+len(trashMarker):], 10, 64)
	return err == nil
}
