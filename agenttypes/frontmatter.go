package agenttypes

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/seed-e4e525a6/baton/agenttypes/repofile"
)

// frontmatter is an agent file split into its YAML header and its body.
type frontmatter struct {
	// fields is the header's mapping node; nil when the header is empty.
	fields *yaml.Node
	// body is the Markdown after the closing "---".
	body string
	// bodyLine is the file line the body starts on.
	bodyLine int
}

// headerOffset turns a line of the YAML header into a line of the file:
// the header starts on line 2, after the opening "---".
const headerOffset = 1

// yamlLine picks the line out of the parser's "yaml: line N: problem".
func yamlLine() *regexp.Regexp {
	yamlLineOnce.Do(func() { yamlLineValue = regexp.MustCompile(`(?s)^yaml: line (\d+): (.*)$`) })
	return yamlLineValue
}

// yamlLineOnce and yamlLineValue hold it, built on first use (a zero
// sync.Once costs nothing at start; sync.OnceValue is init code).
var (
	yamlLineOnce  sync.Once
	yamlLineValue *regexp.Regexp
)

// hasFrontmatter reports whether data opens with a "---" line.
func hasFrontmatter(data []byte) bool {
	text := strings.TrimPrefix(string(data), "\ufeff")
	first, _, _ := strings.Cut(text, "\n")
	return strings.TrimRight(first, " \t\r") == "---"
}

// readFrontmatter splits data at the "---" lines and parses the header,
// once its nesting is known to be bounded.
// A file that cannot be split or parsed is reported as a Warning error
// whose line points into the file, not into the header.
func readFrontmatter(path string, data []byte) (frontmatter, error) {
	text := strings.TrimPrefix(string(data), "\ufeff")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	first, rest, _ := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t") != "---" {
		return frontmatter{}, Warning{File: path, Line: 1,
			Message: "skipped: no frontmatter: an agent file starts with a --- line, then fields such as name and description, then another --- line"}
	}
	header, body, closing, ok := cutHeader(rest)
	if !ok {
		return frontmatter{}, Warning{File: path, Line: 1,
			Message: "skipped: the frontmatter is not closed: add a --- line after the fields"}
	}
	if depth, line := repofile.Nesting([]byte(header), repofile.YAML); depth > repofile.MaxNesting {
		return frontmatter{}, Warning{File: path, Line: line + headerOffset,
			Message: fmt.Sprintf("skipped: the frontmatter is nested deeper than %d levels", repofile.MaxNesting)}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(header), &doc); err != nil {
		doc = yaml.Node{}
		if yaml.Unmarshal([]byte(lenientHeader(header)), &doc) != nil {
			return frontmatter{}, yamlWarning(path, err)
		}
	}
	fm := frontmatter{body: body, bodyLine: closing + 1}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return fm, nil
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		return fm, nil
	}
	if root.Kind != yaml.MappingNode {
		return frontmatter{}, Warning{File: path, Line: root.Line + headerOffset,
			Message: "skipped: the frontmatter must be fields written as key: value"}
	}
	fm.fields = root
	return fm, nil
}

// cutHeader finds the closing "---" line in rest (the file after the
// opening line) and returns the header, the body, and the closing
// line's number in the file. The closing line may be indented, as in
// files whose whole header is: Claude Code's header pattern does not
// anchor it to the line start.
func cutHeader(rest string) (header, body string, closing int, ok bool) {
	line := 2
	for i := 0; ; line++ {
		end := strings.IndexByte(rest[i:], '\n')
		current := rest[i:]
		if end >= 0 {
			current = rest[i : i+end]
		}
		if strings.Trim(current, " \t") == "---" {
			if end < 0 {
				return rest[:i], "", line, true
			}
			return rest[:i], rest[i+end+1:], line, true
		}
		if end < 0 {
			return "", "", 0, false
		}
		i += end + 1
	}
}

// yamlParserProblems are the problems of YAML's parser stage, which
// numbers lines from 0 where its scanner stage numbers them from 1.
var yamlParserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found undefined tag handle":             true,
}

// yamlUnplaced start the problems YAML reports with no position at all
// (bad bytes, bad aliases); the parser and scanner leave only line 0 of
// the header unnumbered.
var yamlUnplaced = []string{
	"control characters", "invalid ", "incomplete ", "unexpected low surrogate",
	"expected low surrogate", "input error", "unknown anchor", "anchor '", "document contains excessive aliasing",
}

// yamlWarning turns a YAML parse error into a warning at the file line
// it concerns, with a hint for the commonest mistake in agent files: a
// description holding ": " without quotes.
func yamlWarning(path string, err error) Warning {
	problem := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 1 + headerOffset
	if m := yamlLine().FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		if problem = m[2]; yamlParserProblems[problem] {
			n++
		}
		line = max(n, 1) + headerOffset
	} else if slices.ContainsFunc(yamlUnplaced, func(p string) bool { return strings.HasPrefix(problem, p) }) {
		line = 1
	}
	msg := "skipped: bad YAML in the frontmatter: " + problem
	if strings.Contains(problem, "mapping values are not allowed") {
		msg += " (put quotes around a value that contains \": \")"
	}
	return Warning{File: path, Line: line, Message: msg}
}
