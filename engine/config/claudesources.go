package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// Claude Code's setting sources, as --setting-sources names them.
const (
	settingUser    = "user"
	settingProject = "project"
	settingLocal   = "local"
)

// claudeSettingsFile is one of Claude Code's settings files: where it is,
// how rules from it are marked, and, for a project's file, the folder it
// must resolve inside ("" for the person's own file). path is "" when
// --setting-sources leaves the file out or there is no home folder.
type claudeSettingsFile struct {
	path, source, inside string
}

// claudeSettingsFiles are the settings files baton reads permissions
// from, in Claude Code's order: the person's ~/.claude/settings.json,
// the project's shared .claude/settings.json, then the project's
// .claude/settings.local.json, where Claude Code writes "always allow".
// sources is --setting-sources (nil: all three).
func claudeSettingsFiles(home, workspace string, sources []string) []claudeSettingsFile {
	files := []claudeSettingsFile{
		{source: event.SourceClaudeUser},
		{source: event.SourceClaudeLocal, inside: workspace},
		{source: event.SourceClaudePersonal, inside: workspace},
	}
	read := func(name string) bool { return sources == nil || slices.Contains(sources, name) }
	if home != "" && read(settingUser) {
		files[0].path = filepath.Join(home, ".claude", "settings.json")
	}
	if read(settingProject) {
		files[1].path = filepath.Join(workspace, ".claude", "settings.json")
	}
	if read(settingLocal) {
		files[2].path = filepath.Join(workspace, ".claude", "settings.local.json")
	}
	return files
}

// ParseSettingSources reads --setting-sources: a comma-separated list of
// user, project and local; empty reads none of Claude Code's files.
func ParseSettingSources(value string) ([]string, error) {
	out := []string{}
	for _, s := range strings.Split(value, ",") {
		switch s = strings.TrimSpace(s); s {
		case "":
		case settingUser, settingProject, settingLocal:
			out = append(out, s)
		default:
			return nil, fmt.Errorf("--setting-sources: expected user, project or local, got %q", s)
		}
	}
	return out, nil
}
