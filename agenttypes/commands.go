package agenttypes

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/seed-e4e525a6/baton/agenttypes/repofile"
)

// maxCommandSize bounds a command file; a prompt template is a few KiB.
const maxCommandSize = 256 << 10

// commandFolders lists the command folders from lowest to highest
// precedence, as folders does for agents: user before project, and
// within each, borrowed folders before baton's.
func (o LoadOptions) commandFolders() []string {
	var dirs []string
	add := func(base string, elem ...string) {
		if base != "" {
			dirs = append(dirs, filepath.Join(append([]string{base}, elem...)...))
		}
	}
	add(o.HomeDir, ".claude", "commands")
	add(o.HomeDir, ".config", "opencode", "command")
	add(o.HomeDir, ".config", "opencode", "commands")
	add(o.UserConfigDir, "commands")
	add(o.ProjectDir, ".claude", "commands")
	add(o.ProjectDir, ".opencode", "command")
	add(o.ProjectDir, ".opencode", "commands")
	add(o.ProjectDir, ".baton", "commands")
	return dirs
}

// LoadCommands reads the custom slash commands of opts' folders, sorted
// by name; a later folder's command replaces an earlier one of the same
// name. Like Load it never fails: files it cannot use are warnings.
// Project files are read only as regular files inside the project.
func LoadCommands(opts LoadOptions) ([]Command, []Warning) {
	var (
		warnings []Warning
		byName   = map[string]Command{}
		read     = map[string]bool{}
	)
	for _, dir := range opts.commandFolders() {
		dir = filepath.Clean(dir)
		if read[dir] {
			continue // the project is the home folder
		}
		read[dir] = true
		paths, err := markdownFiles(dir, "command")
		if err != nil {
			warnings = append(warnings, Warning{File: dir, Message: err.Error()})
		}
		for _, path := range paths {
			c, ws, err := readCommand(opts.rootOf(dir), path, commandNameBelow(dir, path))
			warnings = append(warnings, ws...)
			if err != nil {
				warnings = append(warnings, asWarning(path, err))
				continue
			}
			if prev, ok := byName[c.Name]; ok {
				warnings = append(warnings, Warning{File: path,
					Message: fmt.Sprintf("command /%s here takes precedence over the one in %s", c.Name, prev.Source)})
			}
			byName[c.Name] = c
		}
	}
	out := make([]Command, 0, len(byName))
	for _, c := range byName {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, warnings
}

// commandNameBelow names a command by its path below the folder, folders
// joined by ":" as Claude Code names them ("frontend:component").
func commandNameBelow(dir, path string) string {
	return strings.ReplaceAll(nameBelow(dir, path), "/", ":")
}

// readCommand reads one command file through the safe reader.
func readCommand(root, path, name string) (Command, []Warning, error) {
	f, err := repofile.Read(root, path, maxCommandSize)
	var skip *repofile.SkipError
	switch {
	case errors.As(err, &skip):
		return Command{}, nil, errors.New("skipped: " + skip.Reason)
	case err != nil:
		return Command{}, nil, fmt.Errorf("skipped: read command file: %w", unwrapPath(err))
	case f.Cut:
		return Command{}, nil, fmt.Errorf("skipped: larger than %d KiB", maxCommandSize>>10)
	}
	return parseCommand(path, name, f.Data)
}
