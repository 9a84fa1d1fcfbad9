package agenttypes

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/seed-e4e525a6/baton/agenttypes/repofile"
)

// LoadOptions says where Load looks for agent files. An empty directory
// skips the folders under it.
type LoadOptions struct {
	// ProjectDir is the workspace root holding .baton/agents and the
	// folders of other tools.
	ProjectDir string
	// UserConfigDir is baton's own config folder ($XDG_CONFIG_HOME/baton),
	// holding the user's agents/ folder.
	UserConfigDir string
	// HomeDir holds ~/.claude/agents.
	HomeDir string
	// KnownTools are the tool names the program has; nil means AllTools.
	KnownTools []string
	// Untrusted, when set, filters the project's agent files because the
	// person has not trusted the folder.
	Untrusted *Untrusted
	// UserAgents and ProjectAgents are the [agents.NAME] tables of the
	// person's and the project's config file (see ConfigAgent); each
	// comes after the agent folders of its side, and the project's are
	// filtered as its agent files are.
	UserAgents, ProjectAgents []Type
}

// maxFileSize bounds an agent file; anything larger is not a prompt.
const maxFileSize = 1 << 20

// folder is one place agent files are read from.
type folder struct {
	dir string
	// openCode folders are read as OpenCode reads them.
	openCode bool
	// project folders travel with the repository.
	project bool
	// config is an opencode.json, whose agent blocks are agents too.
	config bool
	// types are agents already read (baton's config file's [agents]);
	// dir then only names them.
	types []Type
}

// folders lists the agent folders from lowest to highest precedence:
// user before project, and within each, borrowed folders before baton's.
func (o LoadOptions) folders() []folder {
	var dirs []folder
	add := func(openCode, project bool, base string, elem ...string) {
		if base != "" {
			dirs = append(dirs, folder{dir: filepath.Join(append([]string{base}, elem...)...), openCode: openCode, project: project})
		}
	}
	addConfigs := func(project bool, base string, elem ...string) {
		for _, name := range OpenCodeConfigNames {
			if base != "" {
				dirs = append(dirs, folder{dir: filepath.Join(append(append([]string{base}, elem...), name)...), openCode: true, project: project, config: true})
			}
		}
	}
	add(false, false, o.HomeDir, ".claude", "agents")
	addConfigs(false, o.HomeDir, ".config", "opencode")
	add(true, false, o.HomeDir, ".config", "opencode", "agent")
	add(true, false, o.HomeDir, ".config", "opencode", "agents")
	add(false, false, o.UserConfigDir, "agents")
	if len(o.UserAgents) > 0 {
		dirs = append(dirs, folder{dir: "[agents] of your config", types: o.UserAgents})
	}
	add(false, true, o.ProjectDir, ".claude", "agents")
	addConfigs(true, o.ProjectDir)
	add(true, true, o.ProjectDir, ".opencode", "agent")
	add(true, true, o.ProjectDir, ".opencode", "agents")
	add(false, true, o.ProjectDir, ".baton", "agents")
	if len(o.ProjectAgents) > 0 {
		dirs = append(dirs, folder{dir: "[agents] of the project's config", project: true, types: o.ProjectAgents})
	}
	return dirs
}

// Load builds the registry: the built-in types, then every agent file in
// the folders of opts, a later folder overriding an earlier one by name.
// It never fails: files it cannot use, and names defined twice, are
// reported in the registry's Warnings and the rest still load.
func Load(opts LoadOptions) *Registry {
	known := opts.KnownTools
	if known == nil {
		known = AllTools
	}
	tools := newToolSet(known)
	var (
		loaded   []Type
		withheld []Type
		warnings []Warning
		read     = make(map[string]bool)   // folders already read
		from     = make(map[string]string) // normalized name → file
		owner    = owners()                // names a project agent must not replace
	)
	for _, f := range opts.folders() {
		dir := filepath.Clean(f.dir)
		if read[dir] {
			continue // the project is the home folder
		}
		read[dir] = true
		found, ws := readFolder(f, opts, tools)
		warnings = append(warnings, ws...)
		for _, t := range found {
			path := t.Source
			key := Normalize(t.Name)
			if !f.project {
				owner[key] = "your agent"
			} else if opts.Untrusted != nil {
				if why := opts.Untrusted.refuse(t, owner[key]); why != "" {
					warnings, withheld = append(warnings, Warning{File: path, Message: why}), append(withheld, t)
					continue
				}
			}
			if prev, ok := from[key]; ok {
				warnings = append(warnings, Warning{File: path,
					Message: fmt.Sprintf("agent %q here takes precedence over the one in %s", t.Name, prev)})
			}
			from[key] = path
			loaded = append(loaded, t)
		}
	}
	r := NewRegistry(append(Builtins(), loaded...)...)
	r.warnings = append(warnings, r.warnings...)
	r.withheld = withheld
	return r
}

// readFolder reads the agents of one place: the Markdown files of a
// folder, or the agent blocks of an opencode.json.
func readFolder(f folder, opts LoadOptions, tools toolSet) ([]Type, []Warning) {
	dir := filepath.Clean(f.dir)
	if f.types != nil {
		return f.types, nil
	}
	if f.config {
		root := opts.rootOf(filepath.Dir(dir))
		cfg, err := readOpenCodeConfig(root, dir, tools)
		if err != nil {
			return nil, []Warning{asWarning(dir, err)}
		}
		return cfg.Agents, cfg.AgentWarnings
	}
	var (
		types    []Type
		warnings []Warning
	)
	paths, err := markdownFiles(dir, "agent")
	if err != nil {
		warnings = append(warnings, Warning{File: dir, Message: err.Error()})
	}
	for _, path := range paths {
		t, ws, err := readAgent(opts.rootOf(dir), path, fileOptions{known: tools, name: nameBelow(dir, path), openCode: f.openCode})
		warnings = append(warnings, ws...)
		if err != nil {
			warnings = append(warnings, asWarning(path, err))
			continue
		}
		types = append(types, t)
	}
	return types, warnings
}

// Bounds of a folder walk: agent folders hold a few dozen files, so a
// tree deeper or larger than this is not one, and reading on would only
// cost time.
const (
	maxFolderDepth = 8
	maxFolderFiles = 1000
)

// markdownFiles lists the .md files under dir, sub-folders included, in
// path order; a missing folder has none. Symbolic links to folders are
// not followed. Past the bounds it returns what it found with an error;
// kind ("agent", "command") words the errors.
func markdownFiles(dir, kind string) ([]string, error) {
	// Look first: opening a FIFO named like the folder would block.
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("read %s folder: %w", kind, unwrapPath(err))
	case !info.IsDir():
		return nil, fmt.Errorf("read %s folder: not a directory", kind)
	}
	var paths []string
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel, _ := filepath.Rel(dir, path); rel != "." && strings.Count(rel, string(filepath.Separator)) >= maxFolderDepth-1 {
				return fmt.Errorf("more than %d folders deep; the rest is not read", maxFolderDepth)
			}
			return nil
		}
		if !strings.EqualFold(filepath.Ext(d.Name()), ".md") {
			return nil
		}
		if len(paths) == maxFolderFiles {
			return fmt.Errorf("more than %d %s files; the rest are not read", maxFolderFiles, kind)
		}
		paths = append(paths, path)
		return nil
	})
	if err != nil {
		return paths, fmt.Errorf("read %s folder: %w", kind, unwrapPath(err))
	}
	return paths, nil
}

// nameBelow is a file's default agent name: its path below the folder
// without ".md", with "/" between folders ("review/security"), as
// OpenCode names nested agents.
func nameBelow(dir, path string) string {
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return ""
	}
	return filepath.ToSlash(strings.TrimSuffix(rel, filepath.Ext(rel)))
}

// rootOf is the workspace a project folder's files must resolve inside;
// user folders ("" root) may be links elsewhere, as dotfiles often are.
func (o LoadOptions) rootOf(dir string) string {
	if o.ProjectDir == "" {
		return ""
	}
	if rel, err := filepath.Rel(o.ProjectDir, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return o.ProjectDir
	}
	return ""
}

// readAgent reads and parses one file: only a regular file (inside root
// when root is set), refused before reading when too large to be a prompt.
func readAgent(root, path string, opts fileOptions) (Type, []Warning, error) {
	f, err := repofile.Read(root, path, maxFileSize)
	var skip *repofile.SkipError
	switch {
	case errors.As(err, &skip):
		return Type{}, nil, errors.New("skipped: " + skip.Reason)
	case err != nil:
		return Type{}, nil, fmt.Errorf("skipped: read agent file: %w", unwrapPath(err))
	case f.Cut:
		return Type{}, nil, fmt.Errorf("skipped: larger than %d KiB", maxFileSize>>10)
	}
	return parseFile(path, f.Data, opts)
}

// asWarning keeps the line of a parse error and gives an I/O error one.
func asWarning(path string, err error) Warning {
	var w Warning
	if errors.As(err, &w) {
		return w
	}
	return Warning{File: path, Message: err.Error()}
}

// unwrapPath drops the path an fs error repeats, since the warning
// already names the file.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
