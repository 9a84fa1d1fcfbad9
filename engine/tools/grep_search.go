package tools

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/seed-e4e525a6/baton/agenttypes/repofile"
)

// maxGrepLineChars cuts a matching line so minified files stay readable.
const maxGrepLineChars = 300

// maxGrepLineBytes is the longest line grep reads; the rest of a file with
// a longer line is skipped, since such files are data, not code.
const maxGrepLineBytes = 1 << 20

// grepSearch accumulates the matches of one grep call across files.
type grepSearch struct {
	re      *regexp.Regexp
	out     strings.Builder
	matches int
	files   int
	// reader and buf are reused from file to file, which halves the time
	// of a search over many small files.
	reader *bufio.Reader
	buf    []byte
}

// newGrepSearch returns an empty search for re.
func newGrepSearch(re *regexp.Regexp) *grepSearch {
	return &grepSearch{re: re, reader: bufio.NewReaderSize(nil, sniffBytes), buf: make([]byte, 64<<10)}
}

// file searches one file, shown as rel, and reports whether it was
// skipped as binary. Matches past maxGrepMatches are counted, not shown.
func (s *grepSearch) file(ctx context.Context, abs, rel string) (binary bool, err error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	f, err := repofile.OpenRegular(abs)
	if err != nil {
		// FIFOs and devices, unreadable files (permissions, races with deletion) are skipped
		// like unreadable directories: one bad file must not fail a search.
		return false, nil
	}
	defer f.Close()
	s.reader.Reset(f)
	if head, _ := s.reader.Peek(sniffBytes); isBinary(head) {
		return true, nil
	}
	sc := bufio.NewScanner(s.reader)
	sc.Buffer(s.buf, maxGrepLineBytes)
	found := false
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if !s.re.Match(line) {
			continue
		}
		found = true
		s.matches++
		if s.matches > maxGrepMatches {
			continue
		}
		text := strings.ToValidUTF8(strings.TrimRight(string(line), "\r"), "\uFFFD")
		if head, left := cutRunes(text, maxGrepLineChars); left > 0 {
			text = head + " …"
		}
		fmt.Fprintf(&s.out, "%s:%d: %s\n", rel, n, text)
	}
	if found {
		s.files++
	}
	if err := sc.Err(); err != nil && !errors.Is(err, bufio.ErrTooLong) {
		return false, fmt.Errorf("read %s: %w", rel, err)
	}
	return false, nil
}

// result renders the matches, a marker for the ones not shown, and the
// summary people see ("12 matches in 4 files").
func (s *grepSearch) result(pattern string, maxChars int) Result {
	if s.matches == 0 {
		return Result{Output: fmt.Sprintf("no matches for %q", pattern), Summary: "0 matches"}
	}
	out := s.out.String()
	if more := s.matches - maxGrepMatches; more > 0 {
		out += "… [truncated: " + plural(more, "more match", "more matches") + "]"
	}
	summary := plural(s.matches, "match", "matches") + " in " + plural(s.files, "file", "files")
	return Result{Output: truncate(strings.TrimSuffix(out, "\n"), maxChars), Summary: summary}
}
