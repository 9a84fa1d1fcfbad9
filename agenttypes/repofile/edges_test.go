package repofile

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A repository can also hand baton a Unix socket or a symlink loop in
// place of a file, or live in a folder that does not resolve; each is
// refused with the reason, nothing read.
func TestReadRefusesSocketsAndLinkLoops(t *testing.T) {
	root := t.TempDir()
	sock := filepath.Join(root, "AGENTS.md")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if _, err := Read(root, sock, 1<<10); !errors.Is(err, ErrSkipped) || !strings.Contains(err.Error(), "a socket, not a regular file") {
		t.Errorf("a socket: %v", err)
	}
	loop := filepath.Join(root, "CLAUDE.md")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(root, loop, 1<<10); !errors.Is(err, ErrSkipped) || !strings.Contains(err.Error(), "could not be resolved") {
		t.Errorf("a symlink loop: %v", err)
	}
	file := filepath.Join(root, "ok.md")
	if err := os.WriteFile(file, []byte("fine"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(filepath.Join(root, "gone"), file, 1<<10); err == nil || !strings.Contains(err.Error(), "resolve workspace") {
		t.Errorf("a workspace that does not resolve: %v", err)
	}
}

// Brackets in strings and comments do not count, and a string or
// comment that ends oddly (an escaped line end, an unclosed quote at the
// line's end, extra closing quotes, a comment at the very end) hides
// nothing after it from the count.
func TestNestingSeesPastStringsThatEndOddly(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + "1" + strings.Repeat("]", n) }
	past := MaxNesting + 1
	cases := []struct {
		name   string
		syntax Syntax
		lead   string // what comes before the deep value
	}{
		{"toml escaped line end", TOML, "s = \"\"\"one \\\ntwo [[[[\"\"\"\n"},
		{"toml unclosed basic string", TOML, "s = \"not closed [[[[\n"},
		{"toml extra closing quotes", TOML, "s = '''x [[[['''''\n"},
		{"json unclosed comment before", JSON, "/* [[[[ */ "},
	}
	for _, c := range cases {
		text := c.lead + "a = " + deep(past-1)
		if c.syntax == JSON {
			text = c.lead + deep(past)
		}
		if err := CheckNesting(c.name, []byte(text), c.syntax); !errors.Is(err, ErrSkipped) {
			t.Errorf("%s: too deep a value after it passed: %v\n%s", c.name, err, text)
		}
		shallow := c.lead + "a = 1\n"
		if c.syntax == JSON {
			shallow = c.lead + "[1]"
		}
		if err := CheckNesting(c.name, []byte(shallow), c.syntax); err != nil {
			t.Errorf("%s: a shallow file was refused: %v", c.name, err)
		}
	}
	for name, text := range map[string]string{
		"an unclosed JSONC comment":  "[1] /* never closed [[[[[[[[",
		"a TOML comment at the end":  "a = 1 # [[[[[[[[[[[[[[[[",
		"blank and space-only lines": "a:\n\n  b: 1\n   \n",
	} {
		syntax := map[string]Syntax{"an unclosed JSONC comment": JSON, "a TOML comment at the end": TOML, "blank and space-only lines": YAML}[name]
		if err := CheckNesting(name, []byte(text), syntax); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := CheckNesting("x", []byte(strings.Repeat("  ", past)+"a: 1"), YAML); err != nil {
		t.Errorf("one indented line is one level: %v", err)
	}
}
