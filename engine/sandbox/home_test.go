package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A home folder as people have them: credentials, notes, a toolchain,
// the workspace and a neighbouring checkout, and links, one to a secret
// kept elsewhere.
func fakeHome(t *testing.T) (home, outside string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, outside = filepath.Join(root, "home"), filepath.Join(root, "outside")
	for _, dir := range []string{".ssh", ".aws", "go/pkg", "src/app/.git", "src/other", "Documents/tax"} {
		if err := os.MkdirAll(filepath.Join(home, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".ssh/id_ed25519", ".aws/credentials", "notes.txt", filepath.Join("..", "outside", "secret")} {
		if err := os.WriteFile(filepath.Join(home, f), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(home, "secret-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, "src", "app"), filepath.Join(home, "app-link")); err != nil {
		t.Fatal(err)
	}
	return home, outside
}

// Commands read in the home folder only what builds need, the way to the
// workspace and its neighbours: credentials, documents and whatever a
// link there points to elsewhere are hidden, a link into the workspace
// is not followed out of it, and a grant that holds the whole home
// folder hides nothing.
func TestHomeIsHiddenButForWhatBuildsNeed(t *testing.T) {
	home, outside := fakeHome(t)
	p := Policy{Mode: WorkspaceWrite, Home: home, Workspace: filepath.Join(home, "src", "app"), HomeReadable: []string{filepath.Join(home, "go")}}
	hidden := p.homeHidden()
	for _, want := range []string{".ssh", ".aws", "notes.txt", "Documents"} {
		if !slices.Contains(hidden, filepath.Join(home, want)) {
			t.Errorf("~/%s is readable; hidden: %v", want, hidden)
		}
	}
	if !slices.Contains(hidden, filepath.Join(outside, "secret")) {
		t.Errorf("a link's secret elsewhere is readable; hidden: %v", hidden)
	}
	for _, h := range hidden {
		for _, kept := range []string{"src/app", "src/other", "go"} {
			if within(filepath.Join(home, kept), h) {
				t.Errorf("%s is hidden, though commands need ~/%s", h, kept)
			}
		}
		if strings.HasSuffix(h, "app-link") {
			t.Errorf("a link to the workspace hid it: %s", h)
		}
	}
	for _, q := range []Policy{{Home: ""}, {Home: home, ExtraReadable: []string{home}}, {Home: "/"}} {
		if got := q.homeHidden(); got != nil {
			t.Errorf("home %q with %v hides %v", q.Home, q.ExtraReadable, got)
		}
	}
}

// The mode's words read back, a project may only narrow them, and the
// label and line say what commands run under.
func TestModesAndTheirWords(t *testing.T) {
	for _, s := range []string{"workspace-write", "read-only", "off"} {
		if m, err := ParseMode(s); err != nil || string(m) != s {
			t.Errorf("ParseMode(%q) = %q, %v", s, m, err)
		}
	}
	if _, err := ParseMode("yolo"); err == nil || !strings.Contains(err.Error(), `got "yolo"`) {
		t.Errorf("an unknown mode: %v", err)
	}
	if !ReadOnly.Narrower(WorkspaceWrite) || !WorkspaceWrite.Narrower(Off) || Off.Narrower(WorkspaceWrite) || !ReadOnly.Narrower(ReadOnly) {
		t.Error("narrowing goes the wrong way")
	}
	if got := (Policy{}).Label(); got != "off" {
		t.Errorf("the zero policy's label %q", got)
	}
	if got := (Policy{Mode: Off, Reason: "--no-sandbox"}).Describe(); got != "off (--no-sandbox): commands run unsandboxed" {
		t.Errorf("off: %q", got)
	}
	if got := (Policy{Mode: Off}).Describe(); !strings.Contains(got, "sandbox off") {
		t.Errorf("off without a reason: %q", got)
	}
	on := Policy{Mode: ReadOnly}
	switch {
	case !Available():
		if on.Label() != "unavailable" || !strings.HasPrefix(on.Describe(), "unavailable (") {
			t.Errorf("where the kernel cannot sandbox: %q, %q", on.Label(), on.Describe())
		}
	default:
		if on.Label() != "read-only" || !strings.HasPrefix(on.Describe(), "read-only · network off") ||
			!strings.Contains(on.WithNetwork(true).Describe(), "network on") {
			t.Errorf("here: %q, %q", on.Label(), on.Describe())
		}
	}
}
