package agenttypes

import (
	"strings"
	"testing"
)

func TestRunnerField(t *testing.T) {
	for _, tc := range []struct{ front, want, warn string }{
		{"runner: process\n", "process", ""},
		{"runner: Local\n", "local", ""},
		{"runner: kubernetes\n", "kubernetes", ""},
		{"runner: ssh\n", "", "runner must be local, process, container, kubernetes or acp"},
		{"runner: container\n", "container", ""},
		{"runner: [process]\n", "", "runner must be local, process, container, kubernetes or acp"},
	} {
		typ, warnings, err := ParseFile("r.md", []byte("---\nname: r\ndescription: d\n"+tc.front+"---\nbody\n"))
		if err != nil {
			t.Fatalf("%q: %v", tc.front, err)
		}
		var text []string
		for _, w := range warnings {
			text = append(text, w.Message)
		}
		if typ.Runner != tc.want || (tc.warn != "" && !strings.Contains(strings.Join(text, "\n"), tc.warn)) {
			t.Errorf("%q: runner %q, warnings %q; want %q, %q", tc.front, typ.Runner, text, tc.want, tc.warn)
		}
	}
}
