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

// TestPermissionsSayWhatTheKernelCannotHold: /permissions and /help say
// what the main agent's and the sub-agents' commands run under, with the
// doors the kernel leaves open written next to "network off".
func TestPermissionsSayWhatTheKernelCannotHold(t *testing.T) {
	main, sub := "workspace-write · network on · Unix sockets off", "workspace-write · network off (TCP only: UDP still goes out) · Unix sockets off"
	opts := Options{Theme: "dark", Sandbox: "workspace-write", SandboxInfo: func() string { return main },
		SubagentSandboxInfo: func() string { return sub }}
	for _, cmd := range []string{"/permissions", "/help"} {
		d := newDriverFor(t, newFakeSession(), opts, 140, 200)
		d.command(cmd)
		screen := d.screen()
		for _, want := range []string{"Commands run in sandbox: " + main, "Sub-agents' commands run in sandbox: " + sub} {
			if !strings.Contains(screen, want) {
				t.Errorf("%s lacks %q:\n%s", cmd, want, screen)
			}
		}
	}
}
