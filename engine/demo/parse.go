package demo

import (
	"path"
	"strconv"
	"strings"
)

// The parsers below read the text the engine's tools return (see
// engine/tools): one workspace-relative path a line for list_files and
// find_files, "path:line: text" for grep, and "number<TAB>text" for
// read_file, each possibly ending with a "… [truncated: …]" marker.

// listing is the top level of a list_files result.
type listing struct {
	dirs, files []string
	total       int
}

// parseListing reads a list_files result of the workspace root.
func parseListing(output string) listing {
	var l listing
	for _, p := range resultLines(output) {
		if p == "(empty directory)" {
			continue
		}
		l.total++
		name, isDir := strings.CutSuffix(p, "/")
		if strings.Contains(name, "/") {
			continue
		}
		if isDir {
			l.dirs = append(l.dirs, name+"/")
		} else {
			l.files = append(l.files, name)
		}
	}
	return l
}

// parsePaths reads a find_files result; "no files match …" gives none.
func parsePaths(output string) []string {
	if strings.HasPrefix(output, "no files match") {
		return nil
	}
	return resultLines(output)
}

// hit is one grep match.
type hit struct {
	path string
	line int
	text string
}

// parseHits reads a grep result; "no matches for …" gives none.
func parseHits(output string) []hit {
	var out []hit
	for _, l := range resultLines(output) {
		file, rest, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		num, text, ok := strings.Cut(rest, ": ")
		n, err := strconv.Atoi(num)
		if !ok || err != nil {
			continue
		}
		out = append(out, hit{path: file, line: n, text: strings.TrimSpace(text)})
	}
	return out
}

// parseFileLines reads a read_file result into its non-blank lines,
// without their numbers.
func parseFileLines(output string) []string {
	var out []string
	for _, l := range resultLines(output) {
		_, text, ok := strings.Cut(l, "\t")
		if !ok {
			continue
		}
		if text = strings.TrimSpace(text); text != "" {
			out = append(out, text)
		}
	}
	return out
}

// resultLines splits a tool result into its lines, without blank lines and
// truncation markers.
func resultLines(output string) []string {
	var out []string
	for _, l := range strings.Split(output, "\n") {
		l = strings.TrimRight(l, "\r")
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "… [") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// omitted reads a "… [truncated: N more <unit>…]" marker a tool puts
// after the items it left out, and returns N, or 0 without one.
func omitted(output, unit string) int {
	i := strings.LastIndex(output, "… [truncated: ")
	if i < 0 {
		return 0
	}
	num, rest, ok := strings.Cut(output[i+len("… [truncated: "):], " ")
	n, err := strconv.Atoi(strings.ReplaceAll(num, ",", ""))
	if !ok || err != nil || !strings.HasPrefix(rest, "more "+unit) {
		return 0
	}
	return n
}

// shallowest returns the path with the fewest folders, the first of them
// on a tie, or "".
func shallowest(paths []string) string {
	best, depth := "", -1
	for _, p := range paths {
		if d := strings.Count(path.Clean(p), "/"); depth < 0 || d < depth {
			best, depth = p, d
		}
	}
	return best
}

// projectKinds names a project by a file at its top level, most telling
// first.
var projectKinds = []struct{ file, kind string }{
	{"go.mod", "a Go module"},
	{"Cargo.toml", "a Rust crate"},
	{"package.json", "a JavaScript/TypeScript project"},
	{"pyproject.toml", "a Python project"},
	{"setup.py", "a Python project"},
	{"requirements.txt", "a Python project"},
	{"pom.xml", "a Java project (Maven)"},
	{"build.gradle", "a JVM project (Gradle)"},
	{"build.gradle.kts", "a JVM project (Gradle)"},
	{"Gemfile", "a Ruby project"},
	{"composer.json", "a PHP project"},
	{"CMakeLists.txt", "a C/C++ project (CMake)"},
	{"Makefile", "a project built with make"},
}

// projectKind returns the manifest found among top-level files and the
// kind of project it shows.
func projectKind(files []string) (manifest, kind string, ok bool) {
	for _, k := range projectKinds {
		for _, f := range files {
			if f == k.file {
				return k.file, k.kind, true
			}
		}
	}
	return "", "", false
}

// isReadme reports whether a file name is a README.
func isReadme(name string) bool {
	return strings.HasPrefix(strings.ToLower(path.Base(name)), "readme")
}
