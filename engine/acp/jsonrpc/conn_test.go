package jsonrpc

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

func TestReadLineSplitsAndBounds(t *testing.T) {
	r := bufio.NewReaderSize(strings.NewReader("short\n"+strings.Repeat("y", 100)+"\nlast"), 16)
	for _, want := range []string{"short", "", "last"} {
		line, err := readLine(r, 50)
		if want == "" {
			if err != errTooLong {
				t.Fatalf("a 100-byte line under a 50-byte bound: %q, %v", line, err)
			}
			continue
		}
		if string(line) != want || (err != nil && err != io.EOF) {
			t.Fatalf("readLine = %q, %v; want %q", line, err, want)
		}
	}
}
