package agenttypes

import (
	"strings"
	"testing"
)

func TestIsolationField(t *testing.T) {
	for _, tc := range []struct{ front, want, warn string }{
		{"isolation: worktree\n", "worktree", ""},
		{"isolation: Shared\n", "shared", ""},
		{"isolation: sandbox\n", "", "isolation must be worktree or shared"},
		{"isolation: [worktree]\n", "", "isolation must be worktree or shared"},
	} {
		typ, warnings, err := ParseFile("w.md", []byte("---\nname: w\ndescription: d\n"+tc.front+"---\nbody\n"))
		if err != nil {
			t.Fatalf("%q: %v", tc.front, err)
		}
		var text []string
		for _, w := range warnings {
			text = append(text, w.Message)
		}
		if typ.Isolation != tc.want || (tc.warn != "" && !strings.Contains(strings.Join(text, "\n"), tc.warn)) {
			t.Errorf("%q: isolation %q, warnings %q; want %q, %q", tc.front, typ.Isolation, text, tc.want, tc.warn)
		}
	}
}
