// Package diffview paints unified diffs in the theme's colours, the one
// way a diff looks in the conversation, on an approval card and in a
// transcript.
package diffview

import (
	"strings"

	"github.com/seed-e4e525a6/baton/themes"
)

// Lines paints each line of a unified diff by its kind: file, hunk,
// added, removed or context.
func Lines(styles *themes.Styles, diff string) []string {
	st := styles.Diff
	lines := strings.Split(strings.TrimRight(diff, "\n"), "\n")
	for i, line := range lines {
		style := st.Context
		switch {
		case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
			style = st.File
		case strings.HasPrefix(line, "@@"):
			style = st.Hunk
		case strings.HasPrefix(line, "+"):
			style = st.Add
		case strings.HasPrefix(line, "-"):
			style = st.Del
		}
		lines[i] = style.Render(line)
	}
	return lines
}

// Looks tells a unified diff from a command line in a preview.
func Looks(s string) bool {
	return strings.HasPrefix(s, "--- ") || strings.HasPrefix(s, "@@") || strings.Contains(s, "\n@@ ")
}
