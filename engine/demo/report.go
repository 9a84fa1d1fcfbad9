package demo

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Bounds on what one report line quotes, so reports stay short enough to
// read in a folded pane and in the main agent's summary.
const (
	maxNamesShown = 6
	maxHitsShown  = 3
	maxLinesShown = 3
	maxQuoteRunes = 80
)

// childReport is a child's final text: its goal, then one line for each
// tool result, built only from what the tools returned.
func childReport(p plan, done []exchange, messages []string) string {
	var b strings.Builder
	switch len(done) {
	case 0:
		fmt.Fprintf(&b, "%s, but I could not look at the folder: none of the tools I needed was available.\n", p.goal)
	default:
		fmt.Fprintf(&b, "%s with %s:\n", p.goal, count(len(done), "tool call", "tool calls"))
	}
	for _, ex := range done {
		for _, line := range describe(ex) {
			b.WriteString("- " + line + "\n")
		}
	}
	for _, m := range messages {
		fmt.Fprintf(&b, "- Noted your message: %q.\n", clip(m, maxQuoteRunes))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// describe turns one tool result into report lines.
func describe(ex exchange) []string {
	var args struct{ Path, Pattern string }
	_ = json.Unmarshal([]byte(ex.args), &args)
	if ex.failed {
		return []string{fmt.Sprintf("`%s` failed: %s", ex.name, clip(strings.TrimPrefix(ex.output, "Error: "), maxQuoteRunes))}
	}
	switch ex.name {
	case "list_files":
		l := parseListing(ex.output)
		l.total += omitted(ex.output, "entr")
		return describeListing(l)
	case "find_files":
		return []string{describePaths(searchLabel(ex.id, args.Pattern), parsePaths(ex.output), omitted(ex.output, "file"))}
	case "grep":
		return []string{describeHits(searchLabel(ex.id, args.Pattern), parseHits(ex.output), omitted(ex.output, "match"))}
	case "read_file":
		return []string{describeFile(args.Path, parseFileLines(ex.output))}
	case "write_file", "edit_file":
		return []string{fmt.Sprintf("Wrote `%s`, as you approved.", args.Path)}
	}
	return []string{fmt.Sprintf("`%s` returned %s.", ex.name, count(len(resultLines(ex.output)), "line", "lines"))}
}

// searchLabel names a search in a report: its probe's label, or the
// pattern searched for.
func searchLabel(id, pattern string) string {
	if pr, ok := probeOf(id); ok && pr.label != "" {
		return pr.label
	}
	return "`" + pattern + "`"
}

// describeListing names the top-level folders and files and the kind of
// project they show.
func describeListing(l listing) []string {
	if l.total == 0 {
		return []string{"The folder is empty."}
	}
	lines := []string{fmt.Sprintf("The top level holds %s and %s; %s within two levels.",
		namedCount(l.dirs, len(l.dirs), "folder", "folders"), namedCount(l.files, len(l.files), "file", "files"), count(l.total, "entry", "entries"))}
	if manifest, kind, ok := projectKind(l.files); ok {
		lines = append(lines, fmt.Sprintf("This looks like %s (`%s`).", kind, manifest))
	}
	return lines
}

// describePaths reports a find_files result; more is how many files the
// tool counted but did not show.
func describePaths(label string, paths []string, more int) string {
	return fmt.Sprintf("%s: %s.", label, namedCount(quoted(paths), len(paths)+more, "file", "files"))
}

// describeHits reports a grep result with its first matches; more is how
// many matches the tool counted but did not show.
func describeHits(label string, hits []hit, more int) string {
	if len(hits) == 0 {
		return label + ": none found."
	}
	files := map[string]bool{}
	var shown []string
	for _, h := range hits {
		files[h.path] = true
		if len(shown) < maxHitsShown {
			shown = append(shown, code(fmt.Sprintf("%s:%d: %s", h.path, h.line, h.text)))
		}
	}
	total := len(hits) + more
	rest := ""
	if total > len(shown) {
		rest = fmt.Sprintf(" and %d more", total-len(shown))
	}
	fileCount := count(len(files), "file", "files")
	if more > 0 {
		fileCount = "at least " + fileCount
	}
	return fmt.Sprintf("%s: %s in %s: %s%s.", label, count(total, "line", "lines"),
		fileCount, strings.Join(shown, "; "), rest)
}

// describeFile quotes the first lines of a file read.
func describeFile(path string, lines []string) string {
	if len(lines) == 0 {
		return fmt.Sprintf("`%s` is empty.", path)
	}
	var quotes []string
	for _, l := range lines[:min(len(lines), maxLinesShown)] {
		quotes = append(quotes, code(l))
	}
	return fmt.Sprintf("`%s` begins: %s", path, strings.Join(quotes, " · "))
}

// namedCount is "2 folders (cmd/, docs/)": total things, naming at most
// maxNamesShown of names.
func namedCount(names []string, total int, one, many string) string {
	if total == 0 {
		return "no " + many
	}
	shown := names[:min(len(names), maxNamesShown)]
	list := strings.Join(shown, ", ")
	if total > len(shown) {
		list += fmt.Sprintf(", … %d more", total-len(shown))
	}
	return fmt.Sprintf("%s (%s)", count(total, one, many), list)
}

// code quotes s as inline code on one line, bounded.
func code(s string) string {
	return "`" + clip(strings.ReplaceAll(s, "`", "'"), maxQuoteRunes) + "`"
}

// quoted wraps each path in backticks.
func quoted(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = "`" + p + "`"
	}
	return out
}

// count is "1 file" or "3 files".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
