package transcript

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Prune removes the sessions of workspace's project whose last activity
// is older than maxAge, and the trashed transcripts (see Dir.Trash) of
// the ones it keeps. It returns how many sessions and trash files it
// removed. Other projects' sessions are never touched: a repository's
// settings must not reach beyond it. A session another process holds
// (see Dir.Lock) is kept, however old it looks. The project folder stays,
// even empty, so a baton starting there at the same moment never loses
// it between creating it and creating its session. Prune stops early,
// with ctx's error, when ctx ends.
func (s *Store) Prune(ctx context.Context, workspace string, maxAge time.Duration, now time.Time) (int, error) {
	if maxAge <= 0 {
		return 0, fmt.Errorf("prune sessions: max age must be positive, got %s", maxAge)
	}
	project, err := s.projectDir(workspace)
	if err != nil {
		return 0, fmt.Errorf("prune sessions: %w", err)
	}
	n, err := pruneProject(ctx, project, now.Add(-maxAge))
	if err != nil {
		return n, fmt.Errorf("prune sessions: %w", err)
	}
	return n, nil
}

// pruneProject removes a project's sessions last active before cutoff and
// the trash of the others.
func pruneProject(ctx context.Context, project string, cutoff time.Time) (int, error) {
	ids, err := sessionIDs(project)
	if err != nil {
		return 0, err
	}
	removed := 0
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return removed, err
		}
		path := filepath.Join(project, id)
		if locked(path) {
			continue
		}
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
