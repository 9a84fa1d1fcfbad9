package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

func init() {
	register("find_files", func(b build) (Tool, bool) { return findFiles{ws: b.ws, lim: b.lim}, true })
}

// maxFindResults bounds one search; further matches are counted, not shown.
const maxFindResults = 1000

// findFiles is the find_files tool: files whose path matches a glob.
type findFiles struct {
	ws  *Workspace
	lim Limits
}

type findFilesArgs struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path"`
}

func (findFiles) Name() string   { return "find_files" }
func (findFiles) ReadOnly() bool { return true }

func (findFiles) Description() string {
	return "Find files by glob pattern, matched against paths relative to path (default: the workspace root). " +
		"Use ** to cross directories: **/*.go, cmd/**/main.go, *.{yaml,yml}. " +
		"Results are workspace-relative paths in tree order; .git and gitignored files are skipped."
}

func (findFiles) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"pattern":{"type":"string","description":"glob such as **/*.go"},` +
		`"path":{"type":"string","description":"directory to search, relative to the workspace root (default: the root)"}},` +
		`"required":["pattern"]}`)
}

func (t findFiles) Title(args json.RawMessage) string {
	var a findFilesArgs
	if json.Unmarshal(args, &a) != nil {
		return t.Name()
	}
	if a.Path != "" {
		return title(t.Name(), a.Pattern, "in "+a.Path)
	}
	return title(t.Name(), a.Pattern)
}

// Run walks the tree under path and keeps the files the pattern matches.
func (t findFiles) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	var a findFilesArgs
	if err := decodeArgs(t.Name(), args, &a, "pattern"); err != nil {
		return Result{}, err
	}
	pattern := strings.TrimPrefix(a.Pattern, "./")
	switch {
	case pattern == "":
		return Result{}, errors.New("find_files: pattern is empty")
	case strings.HasPrefix(pattern, "/"):
		return Result{}, fmt.Errorf("find_files: pattern %q must be relative to path", a.Pattern)
	case !doublestar.ValidatePattern(pattern):
		return Result{}, fmt.Errorf("find_files: invalid glob pattern %q", a.Pattern)
	}
	start, err := resolveDir(ctx, t.ws, a.Path)
	if err != nil {
		return Result{}, err
	}
	var out strings.Builder
	shown, more := 0, 0
	notes, err := walkVisible(ctx, t.ws, start, 0, func(abs string, d fs.DirEntry) error {
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(start, abs)
		if err != nil || !doublestar.MatchUnvalidated(pattern, filepath.ToSlash(rel)) {
			return nil
		}
		if shown == maxFindResults {
			more++
			return nil
		}
		out.WriteString(t.ws.Rel(abs) + "\n")
		shown++
		return nil
	})
	if err != nil {
		return Result{}, fmt.Errorf("find_files %s: %w", a.Pattern, err)
	}
	if shown == 0 {
		return Result{Output: withNotes(fmt.Sprintf("no files match %s", a.Pattern), notes), Summary: "0 files"}, nil
	}
	if more > 0 {
		out.WriteString("… [truncated: " + plural(more, "more file", "more files") + "]")
	}
	output := truncate(strings.TrimSuffix(out.String(), "\n"), t.lim.OutputChars)
	return Result{Output: withNotes(output, notes), Summary: plural(shown+more, "file", "files")}, nil
}
