package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

func init() {
	register("list_files", func(b build) (Tool, bool) { return listFiles{ws: b.ws, lim: b.lim}, true })
}

// maxListEntries bounds one listing; the rest is counted, not shown.
const maxListEntries = 500

// defaultListDepth shows a folder and one level below it: enough to get
// one's bearings without dumping a whole tree.
const defaultListDepth = 2

// listFiles is the list_files tool: the entries of a directory tree.
type listFiles struct {
	ws  *Workspace
	lim Limits
}

type listFilesArgs struct {
	Path  string `json:"path"`
	Depth int    `json:"depth"`
}

func (listFiles) Name() string   { return "list_files" }
func (listFiles) ReadOnly() bool { return true }

func (listFiles) Description() string {
	return "List a directory of the workspace, recursively to a depth (default 2). " +
		"Paths are relative to the workspace root; directories end with /. " +
		"Skips .git and gitignored entries."
}

func (listFiles) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"path":{"type":"string","description":"directory, relative to the workspace root (default: the root)"},` +
		`"depth":{"type":"integer","minimum":1,"description":"how many levels to descend (default 2)"}}}`)
}

func (t listFiles) Title(args json.RawMessage) string {
	var a listFilesArgs
	if json.Unmarshal(args, &a) != nil {
		return t.Name()
	}
	return title(t.Name(), orDot(a.Path))
}

// Run lists up to maxListEntries entries in lexical order and counts the
// ones left out.
func (t listFiles) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	var a listFilesArgs
	if err := decodeArgs(t.Name(), args, &a); err != nil {
		return Result{}, err
	}
	if a.Depth < 0 {
		return Result{}, errors.New("list_files: depth must be positive")
	}
	if a.Depth == 0 {
		a.Depth = defaultListDepth
	}
	start, err := resolveDir(ctx, t.ws, a.Path)
	if err != nil {
		return Result{}, err
	}
	var out strings.Builder
	shown, more := 0, 0
	notes, err := walkVisible(ctx, t.ws, start, a.Depth, func(abs string, d fs.DirEntry) error {
		if shown == maxListEntries {
			more++
			return nil
		}
		out.WriteString(t.ws.Rel(abs))
		if d.IsDir() {
			out.WriteByte('/')
		}
		out.WriteByte('\n')
		shown++
		return nil
	})
	if err != nil {
		return Result{}, fmt.Errorf("list %s: %w", orDot(a.Path), err)
	}
	if shown == 0 {
		return Result{Output: withNotes("(empty directory)", notes), Summary: "0 entries"}, nil
	}
	if more > 0 {
		out.WriteString("… [truncated: " + plural(more, "more entry", "more entries") + "]")
	}
	output := truncate(strings.TrimSuffix(out.String(), "\n"), t.lim.OutputChars)
	return Result{Output: withNotes(output, notes), Summary: plural(shown+more, "entry", "entries")}, nil
}
