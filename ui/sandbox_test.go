package ui

import (
	"strings"
	"testing"
)

// TestHeaderSaysWhenCommandsRunUnsandboxed: --yolo never hides that the
// sandbox is off or missing; the header says so at every width that
// keeps the left side, and /help says what commands run under.
func TestHeaderSaysWhenCommandsRunUnsandboxed(t *testing.T) {
	for _, tc := range []struct{ state, info, want string }{
		{"off", "off (--no-sandbox): commands run unsandboxed", "sandbox off"},
		{"unavailable", "unavailable (this kernel has no Landlock): commands run unsandboxed", "no sandbox"},
		{"read-only", "read-only · network on", "read-only"},
	} {
		for _, width := range []int{120, 60} {
			opts := Options{Workspace: "/work/app", Theme: "dark", Version: "0.1.0", Mode: "yolo", Sandbox: tc.state, SandboxInfo: func() string { return tc.info }}
			d := newDriverFor(t, newFakeSession(), opts, width, 30)
			header := strings.SplitN(d.screen(), "\n", 2)[0]
			if tc.state == "read-only" && width == 60 {
				continue // a narrow header keeps only warnings
			}
			if !strings.Contains(header, tc.want) || !strings.Contains(header, "yolo") {
				t.Errorf("%s at %d: header %q lacks %q", tc.state, width, header, tc.want)
			}
		}
		d := newDriverFor(t, newFakeSession(), Options{Theme: "dark", Sandbox: tc.state, SandboxInfo: func() string { return tc.info }}, 140, 200)
		d.command("/help")
		if !strings.Contains(d.screen(), "Commands run in sandbox: "+tc.info) {
			t.Errorf("/help lacks the sandbox line %q:\n%s", tc.info, d.screen())
		}
	}
	d := newDriverFor(t, newFakeSession(), Options{Theme: "dark", Sandbox: "workspace-write"}, 120, 30)
	if header := strings.SplitN(d.screen(), "\n", 2)[0]; strings.Contains(header, "sandbox") {
		t.Errorf("the default sandbox needs no warning: %q", header)
	}
}
