package acp

import (
	"path/filepath"
	"strings"
)

// diffContent turns a one-file unified diff (what write_file and
// edit_file report) into an ACP diff: the old and new text of its hunks,
// so the editor shows the change without baton sending the whole file. A
// new file has no old text.
func diffContent(workspace, unified string) []toolContent {
	var oldLines, newLines []string
	path, created, inHunks := "", false, false
	for _, line := range strings.Split(strings.TrimSuffix(unified, "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "@@"):
			inHunks = true
		case !inHunks && strings.HasPrefix(line, "--- "):
			created = strings.TrimSpace(line[4:]) == "/dev/null"
		case !inHunks && strings.HasPrefix(line, "+++ "):
			path = strings.TrimPrefix(strings.TrimSpace(line[4:]), "b/")
		case !inHunks:
		case strings.HasPrefix(line, "+"):
			newLines = append(newLines, line[1:])
		case strings.HasPrefix(line, "-"):
			oldLines = append(oldLines, line[1:])
		case strings.HasPrefix(line, " "), line == "":
			oldLines, newLines = append(oldLines, strings.TrimPrefix(line, " ")), append(newLines, strings.TrimPrefix(line, " "))
		}
		// Anything else in a hunk is "\ No newline at end of file".
	}
	if path == "" {
		return []toolContent{textContent(clipShown(unified))}
	}
	newText := strings.Join(newLines, "\n")
	c := toolContent{Type: "diff", Path: absPath(workspace, path), NewText: &newText}
	if !created {
		oldText := strings.Join(oldLines, "\n")
		c.OldText = &oldText
	}
	return []toolContent{c}
}

// absPath makes a path the model or a diff wrote absolute, as ACP wants.
func absPath(workspace, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(workspace, filepath.FromSlash(p))
}
