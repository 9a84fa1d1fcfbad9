package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/seed-e4e525a6/baton/agenttypes/repofile"
)

func init() {
	register("read_file", func(b build) (Tool, bool) { return readFile{ws: b.ws, lim: b.lim}, true })
}

// sniffBytes is how much of a file the binary check looks at.
const sniffBytes = 8 << 10

// maxLineChars cuts a single very long line (minified code, data) so one
// line cannot fill the whole result.
const maxLineChars = 2000

// readFile is the read_file tool: numbered lines of one text file.
type readFile struct {
	ws  *Workspace
	lim Limits
}

type readFileArgs struct {
	Path   string `json:"path"`
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
}

func (readFile) Name() string   { return "read_file" }
func (readFile) ReadOnly() bool { return true }

func (readFile) Description() string {
	return "Read a text file in the workspace. Lines come numbered (number, tab, text). " +
		"Large files must be read in parts with offset (1-based first line) and limit (line count)."
}

func (readFile) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"path":{"type":"string","description":"file path, relative to the workspace root"},` +
		`"offset":{"type":"integer","minimum":1,"description":"first line to read, 1-based"},` +
		`"limit":{"type":"integer","minimum":1,"description":"number of lines to read"}},` +
		`"required":["path"]}`)
}

func (t readFile) Title(args json.RawMessage) string {
	var a readFileArgs
	if json.Unmarshal(args, &a) != nil {
		return t.Name()
	}
	span := ""
	switch {
	case a.Limit > 0:
		span = fmt.Sprintf(":%d-%d", max(a.Offset, 1), max(a.Offset, 1)+a.Limit-1)
	case a.Offset > 0:
		span = fmt.Sprintf(":%d-", a.Offset)
	}
	return title(t.Name(), a.Path+span)
}

// Run reads the file whole when it is small enough, otherwise only the
// requested line range, and stops at the output limit with a marker that
// says where to continue.
func (t readFile) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	var a readFileArgs
	if err := decodeArgs(t.Name(), args, &a, "path"); err != nil {
		return Result{}, err
	}
	if a.Offset < 0 || a.Limit < 0 {
		return Result{}, errors.New("read_file: offset and limit must be positive")
	}
	abs, err := t.ws.ResolveRead(ctx, a.Path)
	if err != nil {
		return Result{}, err
	}
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist) && t.ws.editor.Files != nil:
		// The editor may hold it unsaved.
		text, rerr := t.ws.editor.Files.ReadTextFile(ctx, abs)
		if rerr != nil {
			return Result{}, fmt.Errorf("file not found: %s", a.Path)
		}
		return t.readText(ctx, io.NopCloser(strings.NewReader(text)), a)
	case errors.Is(err, fs.ErrNotExist):
		return Result{}, fmt.Errorf("file not found: %s", a.Path)
	case err != nil:
		return Result{}, fmt.Errorf("read %s: %w", a.Path, err)
	case info.IsDir():
		return Result{}, fmt.Errorf("%s is a directory; use list_files", a.Path)
	case !info.Mode().IsRegular():
		// Opening a FIFO blocks and a device never ends.
		return Result{}, fmt.Errorf("%s is not a regular file", a.Path)
	}
	if a.Offset == 0 && a.Limit == 0 && info.Size() > t.lim.ReadMaxBytes {
		return Result{}, fmt.Errorf("%s is %s, over read_file's %s limit; read a line range with offset and limit",
			a.Path, byteSize(info.Size()), byteSize(t.lim.ReadMaxBytes))
	}
	src, err := t.open(ctx, abs, info.Size())
	if err != nil {
		return Result{}, fmt.Errorf("read %s: %w", a.Path, err)
	}
	return t.readText(ctx, src, a)
}

// readText numbers the requested lines of src, refusing binary content.
func (t readFile) readText(ctx context.Context, src io.ReadCloser, a readFileArgs) (Result, error) {
	defer src.Close()
	r := bufio.NewReaderSize(src, sniffBytes)
	if head, _ := r.Peek(sniffBytes); isBinary(head) {
		return Result{}, fmt.Errorf("binary file: %s", a.Path)
	}
	return t.readLines(ctx, r, a)
}

// open returns the file's content: the editor's text of it when baton
// serves an editor (unsaved changes included), else the file on disk. A
// file too large to read whole is read from the disk in either case: the
// person is not editing it in a buffer.
func (t readFile) open(ctx context.Context, abs string, size int64) (io.ReadCloser, error) {
	if t.ws.editor.Files != nil && size <= t.lim.ReadMaxBytes {
		text, err := t.ws.editor.Files.ReadTextFile(ctx, abs)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(strings.NewReader(text)), nil
	}
	// The look before may be stale: the open itself refuses a FIFO or
	// device swapped in since, without blocking.
	return repofile.OpenRegular(abs)
}

// readLines numbers the lines of the requested window.
func (t readFile) readLines(ctx context.Context, r *bufio.Reader, a readFileArgs) (Result, error) {
	first := max(a.Offset, 1)
	var out strings.Builder
	used, shown, n := 0, 0, 0
	for {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		line, err := r.ReadString('\n')
		if line == "" && err != nil {
			if err != io.EOF {
				return Result{}, fmt.Errorf("read %s: %w", a.Path, err)
			}
			break
		}
		n++
		if n >= first {
			text := strings.ToValidUTF8(strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"), "\uFFFD")
			if head, left := cutRunes(text, min(maxLineChars, t.lim.OutputChars)); left > 0 {
				text = head + " … [line cut: " + plural(left, "more character", "more characters") + "]"
			}
			entry := fmt.Sprintf("%6d\t%s\n", n, text)
			size := utf8.RuneCountInString(entry)
			if shown > 0 && used+size > t.lim.OutputChars {
				fmt.Fprintf(&out, "… [truncated: output limit reached; continue with offset=%d]", n)
				return Result{Output: out.String(), Summary: plural(shown, "line", "lines") + " (truncated)"}, nil
			}
			out.WriteString(entry)
			used += size
			shown++
		}
		if err != nil || (a.Limit > 0 && shown == a.Limit) {
			break
		}
	}
	if first > 1 && first > n {
		return Result{}, fmt.Errorf("offset %d is past the end of %s (%s)", first, a.Path, plural(n, "line", "lines"))
	}
	if n == 0 {
		return Result{Output: "(empty file)", Summary: "0 lines"}, nil
	}
	return Result{Output: out.String(), Summary: plural(shown, "line", "lines")}, nil
}

// isBinary reports whether the first bytes of a file look like binary
// data: a NUL byte, or invalid UTF-8 other than a rune cut by the window.
func isBinary(head []byte) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if utf8.Valid(head) {
		return false
	}
	for i := 1; i < utf8.UTFMax && i <= len(head); i++ {
		if tail := head[len(head)-i:]; utf8.RuneStart(tail[0]) {
			return !utf8.Valid(head[:len(head)-i]) || utf8.FullRune(tail)
		}
	}
	return true
}

// byteSize renders a size for people: 512 B, 256 KiB, 1.5 MiB.
func byteSize(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
}
