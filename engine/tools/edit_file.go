package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

func init() {
	register("edit_file", func(b build) (Tool, bool) { return editFile{ws: b.ws}, true })
}

// editFile is the edit_file tool: replace an exact string in a file.
type editFile struct {
	ws *Workspace
}

type editFileArgs struct {
	Path       string `json:"path"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all"`
}

func (editFile) Name() string   { return "edit_file" }
func (editFile) ReadOnly() bool { return false }

func (editFile) Description() string {
	return "Replace an exact string in an existing text file. old_string must match the file exactly, " +
		"whitespace included, and be unique unless replace_all is set; include surrounding lines to make it unique."
}

func (editFile) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"path":{"type":"string","description":"file path, relative to the workspace root"},` +
		`"old_string":{"type":"string","description":"exact text to replace"},` +
		`"new_string":{"type":"string","description":"text to put in its place"},` +
		`"replace_all":{"type":"boolean","description":"replace every occurrence instead of exactly one"}},` +
		`"required":["path","old_string","new_string"]}`)
}

func (t editFile) Title(args json.RawMessage) string {
	var a editFileArgs
	if json.Unmarshal(args, &a) != nil {
		return t.Name()
	}
	return title(t.Name(), a.Path)
}

// Preview shows the diff the edit would make.
func (t editFile) Preview(ctx context.Context, args json.RawMessage) (string, error) {
	c, _, err := t.plan(ctx, args)
	if err != nil {
		return "", err
	}
	return c.preview()
}

// Lock holds the file the call names (see Serial).
func (t editFile) Lock(ctx context.Context, args json.RawMessage) (context.Context, func(), error) {
	return lockArgs(ctx, t.ws, args)
}

// Run applies the edit and returns the diff it made.
func (t editFile) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	_, unlock, err := t.Lock(ctx, args)
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	c, n, err := t.plan(ctx, args)
	if err != nil {
		return Result{}, err
	}
	res, err := c.apply(ctx)
	if err != nil {
		return Result{}, err
	}
	res.Output = fmt.Sprintf("edited %s: %s", c.rel, plural(n, "replacement", "replacements"))
	return res, nil
}

// plan checks the edit against the file and computes the change and the
// number of replacements. A missing or ambiguous old_string fails with a
// message that tells the model how to fix its call.
func (t editFile) plan(ctx context.Context, args json.RawMessage) (change, int, error) {
	var a editFileArgs
	if err := decodeArgs(t.Name(), args, &a, "path", "old_string", "new_string"); err != nil {
		return change{}, 0, err
	}
	if a.OldString == "" {
		return change{}, 0, errors.New("edit_file: old_string is empty; use write_file to create or replace a whole file")
	}
	if a.OldString == a.NewString {
		return change{}, 0, errors.New("edit_file: old_string and new_string are the same")
	}
	c, err := loadChange(ctx, t.ws, a.Path)
	if err != nil {
		return change{}, 0, err
	}
	if !c.exists {
		return change{}, 0, fmt.Errorf("file not found: %s", a.Path)
	}
	n := strings.Count(c.old, a.OldString)
	switch {
	case n == 0:
		return change{}, 0, fmt.Errorf("old_string not found in %s", a.Path)
	case n > 1 && !a.ReplaceAll:
		return change{}, 0, fmt.Errorf("old_string appears %d times in %s; add context or set replace_all", n, a.Path)
	}
	c.new = strings.ReplaceAll(c.old, a.OldString, a.NewString)
	return c, n, nil
}
