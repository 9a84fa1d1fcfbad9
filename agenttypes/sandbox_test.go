package agenttypes

import (
	"strings"
	"testing"
)

func TestSandboxNetworkField(t *testing.T) {
	for _, tc := range []struct{ front, want, warn string }{
		{"sandbox:\n  network: on\n", "on", ""},
		{"sandbox:\n  network: off\n", "off", ""},
		{"sandbox: {network: true}\n", "on", ""},
		{"sandbox:\n  network: maybe\n", "", "sandbox.network must be on or off"},
		{"sandbox: on\n", "", "sandbox must be a map"},
		{"sandbox:\n  disk: on\n", "", "sandbox.disk is not a sandbox setting"},
	} {
		typ, warnings, err := ParseFile("net.md", []byte("---\nname: net\ndescription: d\n"+tc.front+"---\nbody\n"))
		if err != nil {
			t.Fatalf("%q: %v", tc.front, err)
		}
		var text []string
		for _, w := range warnings {
			text = append(text, w.Message)
		}
		if typ.SandboxNetwork != tc.want || (tc.warn != "" && !strings.Contains(strings.Join(text, "\n"), tc.warn)) {
			t.Errorf("%q: network %q, warnings %q; want %q, %q", tc.front, typ.SandboxNetwork, text, tc.want, tc.warn)
		}
	}
}
