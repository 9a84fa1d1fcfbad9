package worktree

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Hunk is one region of a file's change, as git's unified diff gives it.
type Hunk struct {
	OldStart, OldLines, NewStart, NewLines int
	// Header is the "@@ … @@" line, with the function git names.
	Header string
	Lines  []Line
}

// Line is one line of a hunk: ' ' context, '-' removed, '+' added.
type Line struct {
	Kind byte
	Text string
	// NoEOL marks the file's last line when it has no newline.
	NoEOL bool
}

// bytes is the line as it is in the file.
func (l Line) bytes() string {
	if l.NoEOL {
		return l.Text
	}
	return l.Text + "\n"
}

// parseUnified fills f's hunks and counts from one file's unified diff.
func parseUnified(text string, f *File) error {
	var cur *Hunk
	for _, line := range strings.SplitAfter(text, "\n") {
		body := strings.TrimSuffix(line, "\n")
		switch {
		case strings.HasPrefix(line, "Binary files ") && cur == nil:
			f.Binary = true
		case strings.HasPrefix(line, "@@ "):
			h, err := parseHeader(body)
			if err != nil {
				return err
			}
			f.Hunks = append(f.Hunks, h)
			cur = &f.Hunks[len(f.Hunks)-1]
		case cur == nil || line == "":
		case body == "":
			// An empty context line, as git writes it under the
			// person's (or the repository's) diff.suppressBlankEmpty.
			cur.Lines = append(cur.Lines, Line{Kind: ' '})
		case strings.HasPrefix(line, `\`):
			if n := len(cur.Lines); n > 0 {
				cur.Lines[n-1].NoEOL = true
			}
		case body[0] == ' ' || body[0] == '-' || body[0] == '+':
			cur.Lines = append(cur.Lines, Line{Kind: body[0], Text: body[1:]})
			switch body[0] {
			case '+':
				f.Added++
			case '-':
				f.Removed++
			}
		}
	}
	return nil
}

// parseHeader reads "@@ -a,b +c,d @@ context".
func parseHeader(line string) (Hunk, error) {
	h := Hunk{Header: line}
	rest, ok := strings.CutPrefix(line, "@@ -")
	ranges, _, found := strings.Cut(rest, " @@")
	old, nu, both := strings.Cut(ranges, " +")
	if !ok || !found || !both {
		return h, fmt.Errorf("bad hunk header %q", line)
	}
	var err1, err2 error
	h.OldStart, h.OldLines, err1 = parseRange(old)
	h.NewStart, h.NewLines, err2 = parseRange(nu)
	if err1 != nil || err2 != nil {
		return h, fmt.Errorf("bad hunk header %q", line)
	}
	return h, nil
}

// parseRange reads "a,b" or "a" (one line).
func parseRange(s string) (start, count int, err error) {
	a, b, has := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil {
		return 0, 0, err
	}
	count = 1
	if has {
		count, err = strconv.Atoi(b)
	}
	return start, count, err
}

// applyHunks returns base with the chosen hunks applied and the others
// left out. Hunks come in file order and never overlap, so each chosen
// one replaces its old lines where they are in base.
func applyHunks(base []byte, hunks []Hunk, chosen func(int) bool) ([]byte, error) {
	lines := splitLines(base)
	var out bytes.Buffer
	pos := 0
	for i, h := range hunks {
		if !chosen(i) {
			continue
		}
		start := h.OldStart - 1
		if h.OldLines == 0 {
			start = h.OldStart
		}
		if start < pos || start+h.OldLines > len(lines) {
			return nil, fmt.Errorf("hunk %q does not fit the snapshot", h.Header)
		}
		for _, l := range lines[pos:start] {
			out.WriteString(l)
		}
		old := start
		for _, l := range h.Lines {
			if l.Kind != '+' {
				if old >= len(lines) || lines[old] != l.bytes() {
					return nil, fmt.Errorf("hunk %q does not match the snapshot at line %d", h.Header, old+1)
				}
				old++
			}
			if l.Kind != '-' {
				out.WriteString(l.bytes())
			}
		}
		pos = start + h.OldLines
	}
	for _, l := range lines[pos:] {
		out.WriteString(l)
	}
	return out.Bytes(), nil
}

// splitLines splits b after each newline; the last line may lack one.
func splitLines(b []byte) []string {
	lines := strings.SplitAfter(string(b), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
