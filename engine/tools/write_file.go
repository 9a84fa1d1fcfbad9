package tools

import (
	"context"
	"encoding/json"
)

func init() {
	register("write_file", func(b build) (Tool, bool) { return writeFile{ws: b.ws}, true })
}

// writeFile is the write_file tool: create or replace a whole text file.
type writeFile struct {
	ws *Workspace
}

type writeFileArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

func (writeFile) Name() string   { return "write_file" }
func (writeFile) ReadOnly() bool { return false }

func (writeFile) Description() string {
	return "Create a text file, or replace one's whole content, creating parent directories. " +
		"Prefer edit_file for changes to part of an existing file. Writes inside .git are refused."
}

func (writeFile) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"path":{"type":"string","description":"file path, relative to the workspace root"},` +
		`"content":{"type":"string","description":"the complete new content of the file"}},` +
		`"required":["path","content"]}`)
}

func (t writeFile) Title(args json.RawMessage) string {
	var a writeFileArgs
	if json.Unmarshal(args, &a) != nil {
		return t.Name()
	}
	return title(t.Name(), a.Path)
}

// Preview shows the diff the call would make.
func (t writeFile) Preview(ctx context.Context, args json.RawMessage) (string, error) {
	c, err := t.plan(ctx, args)
	if err != nil {
		return "", err
	}
	return c.preview()
}

// Lock holds the file the call names (see Serial).
func (t writeFile) Lock(ctx context.Context, args json.RawMessage) (context.Context, func(), error) {
	return lockArgs(ctx, t.ws, args)
}

// Run writes the file and returns the diff it made.
func (t writeFile) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	_, unlock, err := t.Lock(ctx, args)
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	c, err := t.plan(ctx, args)
	if err != nil {
		return Result{}, err
	}
	return c.apply(ctx)
}

// plan validates the arguments and computes the change.
func (t writeFile) plan(ctx context.Context, args json.RawMessage) (change, error) {
	var a writeFileArgs
	if err := decodeArgs(t.Name(), args, &a, "path", "content"); err != nil {
		return change{}, err
	}
	c, err := loadChange(ctx, t.ws, a.Path)
	if err != nil {
		return change{}, err
	}
	c.new = a.Content
	return c, nil
}
