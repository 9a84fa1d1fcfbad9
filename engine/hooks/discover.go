package hooks

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/seed-e4e525a6/baton/agenttypes/repofile"
)

// maxSettingsBytes caps a settings file; a real one is a few kilobytes.
const maxSettingsBytes = 256 << 10

// Where Claude Code's settings files are, as sources name them.
const (
	SourceClaudeUser    = "~/.claude/settings.json"
	SourceClaudeProject = ".claude/settings.json"
	SourceClaudeLocal   = ".claude/settings.local.json"
)

// Found are the hooks of Claude Code's settings files: the person's own,
// and the project's, which run only in a folder the person trusts.
type Found struct {
	User, Project []Hook
	// Notices are files that could not be read and hooks baton does not
	// run, each naming its file.
	Notices []string
}

// Discover reads the hooks of ~/.claude/settings.json, and of the
// project's .claude/settings.json and .claude/settings.local.json (read
// only as regular files inside the workspace). A file that cannot be
// used is a notice: a repository never keeps baton from starting.
func Discover(home, workspace string) Found {
	var f Found
	if home != "" {
		hooks, notes := readSettings(filepath.Join(home, ".claude", "settings.json"), "", SourceClaudeUser, false)
		f.User, f.Notices = hooks, notes
	}
	if workspace != "" {
		for _, name := range []string{SourceClaudeProject, SourceClaudeLocal} {
			hooks, notes := readSettings(filepath.Join(workspace, filepath.FromSlash(name)), workspace, name, true)
			f.Project = append(f.Project, hooks...)
			f.Notices = append(f.Notices, notes...)
		}
	}
	return f
}

// readSettings reads one settings file's hooks, bounded in size and
// nesting before it is parsed; a missing file has none.
func readSettings(path, root, source string, project bool) ([]Hook, []string) {
	file, err := repofile.Read(root, path, maxSettingsBytes)
	if err == nil && !file.Cut {
		err = repofile.CheckNesting(path, file.Data, repofile.JSON)
	}
	var skip *repofile.SkipError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case errors.As(err, &skip):
		return nil, []string{fmt.Sprintf("%s: %s; its hooks are not run", source, skip.Reason)}
	case err != nil:
		return nil, []string{fmt.Sprintf("%s: %v; its hooks are not run", source, err)}
	case file.Cut:
		return nil, []string{fmt.Sprintf("%s: larger than %d KiB; its hooks are not run", source, maxSettingsBytes>>10)}
	}
	hooks, notes, err := ParseSettings(file.Data, source, project)
	if err != nil {
		return nil, append(notes, err.Error()+"; its hooks are not run")
	}
	return hooks, notes
}
