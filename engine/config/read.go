package config

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/seed-e4e525a6/baton/agenttypes/repofile"
)

// maxConfigBytes bounds the user's config file and maxProjectConfigBytes a
// repository's; a real one is a few hundred bytes, and the TOML reader's
// time and memory grow with the number of tables, so the file a clone
// hands baton is held smaller.
const (
	maxConfigBytes        = 256 << 10
	maxProjectConfigBytes = 64 << 10
)

// skippedConfig is a config file that exists but was not used (a device,
// a FIFO, a link leaving the workspace, too large): the run goes on
// without it and the person is told why.
type skippedConfig struct{ notice string }

func (e *skippedConfig) Error() string { return e.notice }

// readConfigData reads a config file the way every file a repository
// hands baton is read: a regular file, capped before reading, never a read
// that blocks; the project file must also resolve inside the workspace
// (.baton/config.toml under it), while the user's may be a dotfiles link.
func readConfigData(path, display string, scope configScope) ([]byte, error) {
	root, limit := "", int64(maxConfigBytes)
	if scope == projectScope {
		root, limit = filepath.Dir(filepath.Dir(path)), maxProjectConfigBytes
	}
	f, err := repofile.Read(root, path, limit)
	if err == nil && !f.Cut {
		// Bounded before the TOML reader, whose cost grows with the
		// square of the nesting.
		err = repofile.CheckNesting(display, f.Data, repofile.TOML)
	}
	var skip *repofile.SkipError
	switch {
	case errors.As(err, &skip):
		return nil, &skippedConfig{fmt.Sprintf("%s skipped: %s", display, skip.Reason)}
	case err != nil:
		return nil, fmt.Errorf("read config: %w", err)
	case f.Cut:
		return nil, &skippedConfig{fmt.Sprintf("%s skipped: larger than %d KiB", display, limit>>10)}
	}
	return f.Data, nil
}

// skip turns a config file that was skipped into a notice; other errors
// stay errors.
func (c *Config) skip(err error) error {
	var skipped *skippedConfig
	if errors.As(err, &skipped) {
		c.Notices = append(c.Notices, skipped.notice)
		return nil
	}
	return err
}
