package acpagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/seed-e4e525a6/baton/engine/acp/jsonrpc"
	"github.com/seed-e4e525a6/baton/engine/agent"
	"github.com/seed-e4e525a6/baton/engine/tools"
)

// maxFileBytes bounds a file the agent reads or writes through baton:
// the answer must fit in one message.
const maxFileBytes = maxMessageBytes / 2

// readFile answers fs/read_text_file: a regular file inside the child's
// workspace (symlinks resolved), that no deny rule covers, whole or the
// lines asked for.
func (h *handle) readFile(ctx context.Context, params json.RawMessage) (any, error) {
	var req readTextFileRequest
	if err := json.Unmarshal(params, &req); err != nil {
		return nil, jsonrpc.InvalidParams("invalid params: %v", err)
	}
	if err := h.authorizeFile(ctx, "read_file", req.Path, nil); err != nil {
		return nil, err
	}
	ws := h.job.Workspace
	abs, err := ws.ResolveRead(ctx, req.Path)
	if err != nil {
		return nil, jsonrpc.InvalidParams("%v", err)
	}
	data, err := readRegular(abs, req.Path)
	if err != nil {
		return nil, err
	}
	text := string(data)
	if req.Line != nil || req.Limit != nil {
		text = lines(text, req.Line, req.Limit)
	}
	return readTextFileResponse{Content: text}, nil
}

// writeFile answers fs/write_text_file: through the workspace's guards
// (inside it, no symlink out, no git directory, regular files only) and
// its file locks, after the person's rules, unless the person just
// allowed the agent's edit of that very file.
func (h *handle) writeFile(ctx context.Context, params json.RawMessage) (any, error) {
	var req writeTextFileRequest
	if err := json.Unmarshal(params, &req); err != nil {
		return nil, jsonrpc.InvalidParams("invalid params: %v", err)
	}
	ws := h.job.Workspace
	abs, err := ws.ResolveForWrite(req.Path)
	if err != nil {
		return nil, jsonrpc.InvalidParams("%v", err)
	}
	if !h.takeGrant(abs) {
		content := req.Content
		if err := h.authorizeFile(ctx, "write_file", req.Path, &content); err != nil {
			return nil, err
		}
	}
	if len(req.Content) > maxFileBytes {
		return nil, jsonrpc.InvalidParams("%d bytes is over the %d byte limit of a file written through baton", len(req.Content), maxFileBytes)
	}
	err = ws.Update(ctx, req.Path, func([]byte, bool) (tools.FileUpdate, error) {
		return tools.FileUpdate{Data: []byte(req.Content)}, nil
	})
	if err != nil {
		return nil, err
	}
	return struct{}{}, nil
}

// authorizeFile puts a file request to the person's rules as the baton
// tool it amounts to; a refusal is the agent's error, with the reason.
func (h *handle) authorizeFile(ctx context.Context, tool, path string, content *string) error {
	args := map[string]any{"path": path}
	if content != nil {
		args["content"] = *content
	}
	raw, _ := json.Marshal(args)
	tr := agent.ToolRequest{CallID: "acp-fs", Tool: tool, ReadOnly: content == nil, Args: raw}
	err := h.beforeTool(ctx, &tr)
	if err == nil {
		_, err = h.job.Link.Authorize.Authorize(ctx, tr)
	}
	if err != nil {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: err.Error()}
	}
	return nil
}

// readRegular reads a resolved path that must be a regular text file of
// at most maxFileBytes: never a FIFO that would block, a device or a
// folder.
func readRegular(abs, path string) ([]byte, error) {
	f, err := os.OpenFile(abs, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeNotFound, Message: fmt.Sprintf("%s does not exist", path)}
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if !info.Mode().IsRegular() {
		return nil, jsonrpc.InvalidParams("%s is not a regular file", path)
	}
	if info.Size() > maxFileBytes {
		return nil, jsonrpc.InvalidParams("%s is %d bytes, over the %d byte limit of a file read through baton", path, info.Size(), maxFileBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(data) > maxFileBytes {
		return nil, jsonrpc.InvalidParams("%s grew over the %d byte limit while read", path, maxFileBytes)
	}
	if !utf8.Valid(data) {
		return nil, jsonrpc.InvalidParams("%s is not UTF-8 text", path)
	}
	return data, nil
}

// lines is the part of text from 1-based line, at most limit lines.
func lines(text string, line, limit *int) string {
	all := strings.SplitAfter(text, "\n")
	from := 0
	if line != nil && *line > 1 {
		from = min(*line-1, len(all))
	}
	to := len(all)
	if limit != nil && *limit >= 0 {
		to = min(from+*limit, len(all))
	}
	return strings.Join(all[from:to], "")
}
