package skills

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/seed-e4e525a6/baton/agenttypes"
	"github.com/seed-e4e525a6/baton/agenttypes/repofile"
)

// Options says where Load looks. An empty folder skips the places under it.
type Options struct {
	// ProjectDir is the workspace, holding .claude/skills and the others.
	ProjectDir string
	// HomeDir holds ~/.claude/skills.
	HomeDir string
	// ConfigHome is the XDG config folder (~/.config), holding
	// opencode/skill(s) and agents/skills.
	ConfigHome string
	// BatonDir is baton's own config folder, holding skills/.
	BatonDir string
}

// Bounds: a skill's SKILL.md is instructions of a few pages, and a
// folder of skills holds dozens, not thousands.
const (
	maxSkillBytes   = 256 << 10
	maxSkills       = 500
	maxFolderSkills = 1000
)

// folder is one place skills are read from.
type folder struct {
	dir, label string
	project    bool
}

// folders lists the skill folders from lowest to highest precedence: the
// project's before the person's (as in Claude Code, a personal skill is
// not replaced by one a repository brings), and within each, the folders
// of other tools before baton's own.
func (o Options) folders() []folder {
	var out []folder
	add := func(project bool, base, label string, elem ...string) {
		if base != "" {
			out = append(out, folder{filepath.Join(append([]string{base}, elem...)...), label, project})
		}
	}
	add(true, o.ProjectDir, ".claude/skills", ".claude", "skills")
	add(true, o.ProjectDir, ".opencode/skill", ".opencode", "skill")
	add(true, o.ProjectDir, ".opencode/skills", ".opencode", "skills")
	add(true, o.ProjectDir, ".agents/skills", ".agents", "skills")
	add(true, o.ProjectDir, ".baton/skills", ".baton", "skills")
	add(false, o.HomeDir, "~/.claude/skills", ".claude", "skills")
	add(false, o.ConfigHome, "~/.config/opencode/skill", "opencode", "skill")
	add(false, o.ConfigHome, "~/.config/opencode/skills", "opencode", "skills")
	add(false, o.ConfigHome, "~/.config/agents/skills", "agents", "skills")
	add(false, o.BatonDir, "baton's skills", "skills")
	return out
}

// Load reads every skill folder of opts. It never fails: what cannot be
// used is a problem naming its file.
func Load(opts Options) *Catalog {
	c := &Catalog{}
	read := map[string]bool{}
	for _, f := range opts.folders() {
		dir := filepath.Clean(f.dir)
		if read[dir] {
			continue // the project is the home folder
		}
		read[dir] = true
		names, err := skillFolders(dir)
		if err != nil {
			c.warnings = append(c.warnings, agenttypes.Warning{File: dir, Message: err.Error()})
		}
		root := ""
		if f.project {
			root = opts.ProjectDir
		}
		for _, name := range names {
			if len(c.skills) >= maxSkills {
				c.warnings = append(c.warnings, agenttypes.Warning{File: dir, Message: fmt.Sprintf("more than %d skills; the rest are not read", maxSkills)})
				return c
			}
			s, warns, err := readSkill(root, filepath.Join(dir, name), name)
			c.warnings = append(c.warnings, warns...)
			if err != nil {
				c.broken = append(c.broken, asWarning(filepath.Join(dir, name, skillFile), err))
				continue
			}
			s.Source, s.Project = f.label, f.project
			s.Dir = grantable(s.Dir, opts.HomeDir, &c.warnings, s.File)
			if prev, ok := c.Lookup(s.Name); ok {
				c.warnings = append(c.warnings, agenttypes.Warning{File: s.File,
					Message: fmt.Sprintf("skill %q here takes precedence over the one in %s", s.Name, prev.File)})
			}
			c.add(s)
		}
	}
	return c
}

// skillFile is the file that makes a folder a skill.
const skillFile = "SKILL.md"

// skillFolders lists the sub-folders of dir that hold a SKILL.md, by
// name; a missing dir has none. Links to folders count: people keep their
// skills in a repository of dotfiles and link them in.
func skillFolders(dir string) ([]string, error) {
	info, err := os.Stat(dir) // look first: opening a FIFO named like the folder would block
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("read skills folder: %w", unwrapPath(err))
	case !info.IsDir():
		return nil, errors.New("read skills folder: not a directory")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read skills folder: %w", unwrapPath(err))
	}
	var names []string
	for _, e := range entries {
		if len(names) == maxFolderSkills {
			return names, fmt.Errorf("more than %d skill folders; the rest are not read", maxFolderSkills)
		}
		if _, err := os.Lstat(filepath.Join(dir, e.Name(), skillFile)); err == nil {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

// readSkill reads one skill folder through the safe reader: SKILL.md must
// be a regular file (inside root, when set) no larger than the cap.
func readSkill(root, dir, name string) (Skill, []agenttypes.Warning, error) {
	path := filepath.Join(dir, skillFile)
	data, err := readBounded(root, path)
	if err != nil {
		return Skill{}, nil, err
	}
	s, warns, err := Parse(path, name, data)
	if err != nil {
		return Skill{}, warns, err
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return Skill{}, warns, fmt.Errorf("skipped: resolve the skill's folder: %w", unwrapPath(err))
	}
	s.Dir, s.File, s.root = real, path, root
	return s, warns, nil
}

// readBounded reads a SKILL.md as every file a repository hands baton is
// read: looked at first, never an open that blocks, capped.
func readBounded(root, path string) ([]byte, error) {
	f, err := repofile.Read(root, path, maxSkillBytes)
	var skip *repofile.SkipError
	switch {
	case errors.As(err, &skip):
		return nil, errors.New("skipped: " + skip.Reason)
	case err != nil:
		return nil, fmt.Errorf("skipped: read %s: %w", skillFile, unwrapPath(err))
	case f.Cut:
		return nil, fmt.Errorf("skipped: larger than %d KiB", maxSkillBytes>>10)
	}
	return f.Data, nil
}

// grantable returns dir when loading the skill may make it readable: not
// the root, a home folder or a folder above the home folder, which a
// skill folder linked there would otherwise open to the file tools.
func grantable(dir, home string, problems *[]agenttypes.Warning, file string) string {
	wide := dir == string(filepath.Separator) || filepath.Dir(dir) == dir
	if home != "" {
		if realHome, err := filepath.EvalSymlinks(home); err == nil {
			rel, err := filepath.Rel(dir, realHome)
			wide = wide || err == nil && (rel == "." || !strings.HasPrefix(rel, ".."))
		}
	}
	if wide {
		*problems = append(*problems, agenttypes.Warning{File: file,
			Message: "the skill's folder is " + dir + "; it is not made readable when the skill loads"})
		return ""
	}
	return dir
}

// Body reads s's instructions again, as the model loads it: the file as
// it is now, through the same checks as at start.
func (s Skill) Body() (string, error) {
	data, err := readBounded(s.root, s.File)
	if err != nil {
		return "", fmt.Errorf("skill %s: %w", s.Name, err)
	}
	h, err := agenttypes.ReadHeader(s.File, data)
	if err != nil {
		return "", fmt.Errorf("skill %s: %w", s.Name, err)
	}
	return strings.TrimSpace(h.Body), nil
}

// asWarning keeps the line of a parse error and gives an I/O error one.
func asWarning(path string, err error) agenttypes.Warning {
	var w agenttypes.Warning
	if errors.As(err, &w) {
		return w
	}
	return agenttypes.Warning{File: path, Message: err.Error()}
}

// unwrapPath drops the path an fs error repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
