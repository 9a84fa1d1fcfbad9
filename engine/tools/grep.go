package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

func init() {
	register("grep", func(b build) (Tool, bool) { return grep{ws: b.ws, lim: b.lim}, true })
}

// maxGrepMatches bounds the matches shown; the rest are only counted.
const maxGrepMatches = 200

// grep is the grep tool: lines matching a regular expression.
type grep struct {
	ws  *Workspace
	lim Limits
}

type grepArgs struct {
	Pattern    string `json:"pattern"`
	Path       string `json:"path"`
	Glob       string `json:"glob"`
	IgnoreCase bool   `json:"ignore_case"`
}

func (grep) Name() string   { return "grep" }
func (grep) ReadOnly() bool { return true }

func (grep) Description() string {
	return "Search file contents with a Go (RE2) regular expression. Output lines are file:line: text. " +
		"Skips binary files, .git and gitignored files. Narrow with path (a directory or file) and " +
		"glob (*.go matches file names anywhere; a glob with / matches paths relative to path)."
}

func (grep) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"pattern":{"type":"string","description":"Go regular expression, e.g. func \\w+Handler"},` +
		`"path":{"type":"string","description":"directory or file to search, relative to the workspace root (default: the root)"},` +
		`"glob":{"type":"string","description":"only search files matching this glob, e.g. *.go or src/**/*.ts"},` +
		`"ignore_case":{"type":"boolean","description":"match case-insensitively"}},` +
		`"required":["pattern"]}`)
}

func (t grep) Title(args json.RawMessage) string {
	var a grepArgs
	if json.Unmarshal(args, &a) != nil {
		return t.Name()
	}
	return title(t.Name(), fmt.Sprintf("%q", a.Pattern), a.Path, a.Glob)
}

// Run searches one file, or every visible text file under a directory
// whose name passes the glob.
func (t grep) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	a, re, err := t.parse(args)
	if err != nil {
		return Result{}, err
	}
	start, err := t.ws.ResolveRead(ctx, orDot(a.Path))
	if err != nil {
		return Result{}, err
	}
	info, err := os.Stat(start)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Result{}, fmt.Errorf("path not found: %s", orDot(a.Path))
	case err != nil:
		return Result{}, fmt.Errorf("grep %s: %w", orDot(a.Path), err)
	case !info.IsDir() && !info.Mode().IsRegular():
		return Result{}, fmt.Errorf("%s is not a regular file", a.Path)
	}
	s := newGrepSearch(re)
	if !info.IsDir() {
		binary, err := s.file(ctx, start, t.ws.Rel(start))
		if binary {
			return Result{}, fmt.Errorf("binary file: %s", a.Path)
		}
		if err != nil {
			return Result{}, err
		}
		return s.result(a.Pattern, t.lim.OutputChars), nil
	}
	notes, err := walkVisible(ctx, t.ws, start, 0, func(abs string, d fs.DirEntry) error {
		if d.IsDir() || !globMatches(a.Glob, start, abs) {
			return nil
		}
		target, ok := t.searchable(abs, d)
		if !ok {
			return nil
		}
		_, err := s.file(ctx, target, t.ws.Rel(abs))
		return err
	})
	if err != nil {
		return Result{}, fmt.Errorf("grep %s: %w", orDot(a.Path), err)
	}
	res := s.result(a.Pattern, t.lim.OutputChars)
	res.Output = withNotes(res.Output, notes)
	return res, nil
}

// parse decodes the arguments and compiles the pattern.
func (t grep) parse(args json.RawMessage) (grepArgs, *regexp.Regexp, error) {
	var a grepArgs
	if err := decodeArgs(t.Name(), args, &a, "pattern"); err != nil {
		return a, nil, err
	}
	expr := a.Pattern
	if a.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return a, nil, fmt.Errorf("grep: invalid regular expression %q: %w", a.Pattern, err)
	}
	if a.Glob != "" && !doublestar.ValidatePattern(a.Glob) {
		return a, nil, fmt.Errorf("grep: invalid glob %q", a.Glob)
	}
	return a, re, nil
}

// searchable says which file to open for a walked entry: a regular file
// itself, a symlink's target when it is a regular file inside the
// workspace, and nothing else (a FIFO or device would block or never end).
func (t grep) searchable(abs string, d fs.DirEntry) (string, bool) {
	if d.Type().IsRegular() {
		return abs, true
	}
	if d.Type()&fs.ModeSymlink == 0 {
		return "", false
	}
	target, err := t.ws.Resolve(abs)
	if err != nil {
		return "", false
	}
	info, err := os.Stat(target)
	return target, err == nil && info.Mode().IsRegular()
}

// globMatches applies grep's file filter: a glob without a slash matches
// file names at any depth (as in ripgrep), one with a slash matches the
// path relative to the search root.
func globMatches(glob, start, abs string) bool {
	if glob == "" {
		return true
	}
	if !strings.Contains(glob, "/") {
		return doublestar.MatchUnvalidated(glob, path.Base(filepath.ToSlash(abs)))
	}
	rel, err := filepath.Rel(start, abs)
	return err == nil && doublestar.MatchUnvalidated(strings.TrimPrefix(glob, "./"), filepath.ToSlash(rel))
}
