package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/seed-e4e525a6/baton/engine/event"
)

// tableHeader is a line that opens a TOML table or array of tables.
func tableHeader() *regexp.Regexp {
	tableHeaderOnce.Do(func() { tableHeaderValue = regexp.MustCompile(`^\s*\[\[?\s*[A-Za-z0-9_."' -]+\s*\]\]?\s*(#.*)?$`) })
	return tableHeaderValue
}

// tableHeaderOnce and tableHeaderValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	tableHeaderOnce  sync.Once
	tableHeaderValue *regexp.Regexp
)

// permissionsHeader is the line that opens [permissions].
func permissionsHeader() *regexp.Regexp {
	permissionsHeaderOnce.Do(func() { permissionsHeaderValue = regexp.MustCompile(`^\s*\[\s*permissions\s*\]\s*(#.*)?$`) })
	return permissionsHeaderValue
}

// permissionsHeaderOnce and permissionsHeaderValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	permissionsHeaderOnce  sync.Once
	permissionsHeaderValue *regexp.Regexp
)

// SaveRules writes the session's user-config and session rules into the
// [permissions] table of the user config at path, replacing only that
// table: every other key, table and comment stays as the person wrote it.
// The result is checked the way baton reads it before it replaces the
// file. Rules from the project or Claude Code's settings are not copied.
func SaveRules(path string, list []event.PermissionRule) error {
	if path == "" {
		return errors.New("save rules: no user config folder (HOME is not set)")
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("save rules: %w", err)
	}
	table := map[string][]string{}
	for _, r := range list {
		if r.Source == event.SourceUser || r.Source == event.SourceSession {
			table[r.Kind] = append(table[r.Kind], r.Rule)
		}
	}
	var enc bytes.Buffer
	if err := toml.NewEncoder(&enc).Encode(map[string]any{"permissions": table}); err != nil {
		return fmt.Errorf("save rules: %w", err)
	}
	text, err := replaceTable(string(old), enc.String())
	if err != nil {
		return fmt.Errorf("save rules in %s: %w", path, err)
	}
	return writeChecked(path, text)
}

// replaceTable puts table in place of the [permissions] table of doc, or
// after everything else when doc has none.
func replaceTable(doc, table string) (string, error) {
	var raw map[string]any
	if _, err := toml.Decode(doc, &raw); err != nil {
		return "", fmt.Errorf("the file does not parse, so it was left alone: %w", err)
	}
	lines := strings.SplitAfter(doc, "\n")
	start := -1
	for i, line := range lines {
		if permissionsHeader().MatchString(strings.TrimRight(line, "\r\n")) {
			start = i
			break
		}
	}
	if start < 0 {
		if _, ok := raw["permissions"]; ok {
			return "", errors.New("permissions is written as dotted keys or an inline table; move it into a [permissions] table first")
		}
		if doc != "" && !strings.HasSuffix(doc, "\n") {
			doc += "\n"
		}
		if doc != "" {
			doc += "\n"
		}
		return doc + table, nil
	}
	end := len(lines)
	for i := start + 1; i < len(lines); i++ {
		if tableHeader().MatchString(strings.TrimRight(lines[i], "\r\n")) {
			end = i
			break
		}
	}
	rest := strings.Join(lines[end:], "")
	if rest != "" {
		table += "\n"
	}
	return strings.Join(lines[:start], "") + table + rest, nil
}

// writeChecked writes text next to path, reads it back as a user config,
// and only then renames it over path, keeping the file's mode.
func writeChecked(path, text string) error {
	mode := fs.FileMode(0o600)
	if info, err := os.Stat(path); err == nil {
		mode = info.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save rules: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".config-*.toml")
	if err != nil {
		return fmt.Errorf("save rules: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(text); err != nil {
		tmp.Close()
		return fmt.Errorf("save rules: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save rules: %w", err)
	}
	if _, err := loadConfigFile(tmp.Name(), path, userScope, nil); err != nil {
		return fmt.Errorf("save rules: the new file would not load (%w); nothing was written", err)
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return fmt.Errorf("save rules: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("save rules: %w", err)
	}
	return nil
}
