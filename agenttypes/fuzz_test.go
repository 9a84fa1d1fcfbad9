package agenttypes

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// FuzzParseFile feeds the frontmatter reader arbitrary files, seeded with
// the samples: it must never panic, and what it returns must hold to the
// promises Load and the engine rely on.
func FuzzParseFile(f *testing.F) {
	paths, err := filepath.Glob(filepath.Join(samples, "*", "*.md"))
	if err != nil || len(paths) == 0 {
		f.Fatalf("glob samples: %v (%d files)", err, len(paths))
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"", "---", "---\n---", "\ufeff---\r\ndescription: d\r\n---\r\n",
		"---\ndescription: &a [*a]\n---\n", "---\n? [a]\n: b\n---\n",
		"---\ndescription: d\ntools: {task: yes}\n---\n", "---\ndescription: d\ntimeout_s: 1e300\n---\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const path = "fuzz.md"
		got, warns, err := ParseFile(path, data)
		maxLine := 2 + strings.Count(string(data), "\n") + strings.Count(string(data), "\r") +
			strings.Count(string(data), "\u0085") + strings.Count(string(data), "\u2028") + strings.Count(string(data), "\u2029")
		for _, w := range warns {
			checkPlaced(t, w, path, maxLine)
		}
		again, againWarns, againErr := ParseFile(path, data)
		if a, b := fmt.Sprintf("%v %v", warns, err), fmt.Sprintf("%v %v", againWarns, againErr); a != b || !reflect.DeepEqual(got, again) {
			t.Fatalf("two parses differ:\n%+v %s\n%+v %s", got, a, again, b)
		}
		if err != nil {
			checkPlaced(t, skipWarning(t, err), path, maxLine)
			return
		}
		if got.Name == "" || Normalize(got.Name) == "" || strings.TrimSpace(got.Description) == "" {
			t.Fatalf("parsed a type without a usable name or description: %#v", got)
		}
		for i, tool := range got.Tools {
			if !slices.Contains(AllTools, tool) && !IsMCPTool(tool) || slices.Contains(got.Tools[:i], tool) {
				t.Fatalf("tools %q hold %q, which is not a known tool or is repeated", got.Tools, tool)
			}
		}
		if got.Model == "" || got.Source != path || got.MaxSteps < 0 || got.Timeout < 0 || got.Timeout > maxTimeout {
			t.Fatalf("parsed type breaks a limit: %#v", got)
		}
	})
}

// checkPlaced asserts a warning names the file and a line inside it.
func checkPlaced(t *testing.T, w Warning, path string, maxLine int) {
	t.Helper()
	if w.File != path || w.Line < 1 || w.Line > maxLine || w.Message == "" {
		t.Fatalf("warning %q is not placed in %s (lines 1-%d)", w, path, maxLine)
	}
}
