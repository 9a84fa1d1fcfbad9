package transcript

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// pruneStamp is the file in a project's folder whose modification time
// says when its sessions were last pruned. Its name is no session id, so
// listing and pruning never take it for one.
const pruneStamp = ".pruned"

// ClaimPrune reports whether workspace's project is due for a prune: it
// was never pruned, or last pruned at least every before now. A due
// project is claimed by stamping it now, so the processes that start in
// the next interval skip the walk over every stored session, which is what
// kept start-up growing with history. A prune cut short is taken up
// again at the next claim; sessions are pruned oldest first, so each one
// makes progress.
func (s *Store) ClaimPrune(workspace string, now time.Time, every time.Duration) (bool, error) {
	project, err := s.projectDir(workspace)
	if err != nil {
		return false, fmt.Errorf("claim prune: %w", err)
	}
	stamp := filepath.Join(project, pruneStamp)
	info, err := os.Lstat(stamp)
	switch {
	case err == nil && !info.Mode().IsRegular():
		return false, fmt.Errorf("claim prune: %s is not a regular file", stamp)
	case err == nil && now.Sub(info.ModTime()) < every && info.ModTime().Before(now.Add(time.Minute)):
		// Stamped recently. A stamp from the future (a clock set back)
		// does not count, or pruning would stop until the clock caught up.
		return false, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return false, fmt.Errorf("claim prune: %w", err)
	}
	if err := os.MkdirAll(project, 0o700); err != nil {
		return false, fmt.Errorf("claim prune: %w", err)
	}
	f, err := os.OpenFile(stamp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return false, fmt.Errorf("claim prune: %w", err)
	}
	if err := f.Close(); err != nil {
		return false, fmt.Errorf("claim prune: %w", err)
	}
	if err := os.Chtimes(stamp, now, now); err != nil {
		return false, fmt.Errorf("claim prune: %w", err)
	}
	return true, nil
}
