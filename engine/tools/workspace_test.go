package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// escapeTree is a workspace with symlinks that stay inside and ones that
// leave, next to an outside folder holding a secret.
func escapeTree(t *testing.T) (ws *Workspace, outside string) {
	t.Helper()
	ws = newTree(t, map[string]string{"a.txt": "a\n", "dir/b.txt": "b\n", ".git/config": "[core]\n"})
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"linkout":    filepath.Join(outside, "secret.txt"),
		"dirout":     outside,
		"dangling":   filepath.Join(outside, "later.txt"),
		"linkin":     "dir/b.txt",
		"dirin":      "dir",
		"danglingin": "dir/later.txt",
		"gitlink":    ".git/config",
		"loop1":      "loop2",
		"loop2":      "loop1",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(ws.Root(), name)); err != nil {
			t.Fatal(err)
		}
	}
	return ws, outside
}

func TestResolve(t *testing.T) {
	ws, outside := escapeTree(t)
	root := ws.Root()
	tests := []struct {
		path    string
		want    string // relative to root when the call succeeds
		wantErr string
	}{
		{path: "a.txt", want: "a.txt"},
		{path: "./dir/../a.txt", want: "a.txt"},
		{path: ".", want: "."},
		{path: "new/deep/file.txt", want: "new/deep/file.txt"},
		{path: filepath.Join(root, "dir", "b.txt"), want: "dir/b.txt"},
		{path: "linkin", want: "dir/b.txt"},
		{path: "dirin/new.txt", want: "dir/new.txt"},
		{path: "danglingin", want: "dir/later.txt"},
		{path: "", wantErr: "path is empty"},
		{path: "../x", wantErr: `path "../x" is outside the workspace ` + root},
		{path: "dir/../../x", wantErr: "is outside the workspace"},
		{path: "/etc/passwd", wantErr: `path "/etc/passwd" is outside the workspace`},
		{path: filepath.Join(outside, "secret.txt"), wantErr: "is outside the workspace"},
		{path: "linkout", wantErr: `path "linkout" leads outside the workspace ` + root + " through a symlink"},
		{path: "dirout/secret.txt", wantErr: "through a symlink"},
		{path: "dirout/new/file.txt", wantErr: "through a symlink"},
		{path: "dangling", wantErr: "through a symlink"},
		{path: "loop1", wantErr: "resolve path"},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			got, err := ws.Resolve(tc.path)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Resolve(%q) = %q, %v; want error containing %q", tc.path, got, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tc.path, err)
			}
			if want := filepath.Join(root, filepath.FromSlash(tc.want)); got != want {
				t.Fatalf("Resolve(%q) = %q, want %q", tc.path, got, want)
			}
		})
	}
}

func TestResolveForWrite(t *testing.T) {
	ws, _ := escapeTree(t)
	tests := []struct {
		path string
		ok   bool
	}{
		{"a.txt", true},
		{".gitignore", true},
		{"a.git/x", true},
		{"new/file.txt", true},
		{".git", false},
		{".git/config", false},
		{".git/hooks/pre-commit", false},
		{"sub/.git/config", false},
		{filepath.Join(ws.Root(), ".git", "HEAD"), false},
		{"gitlink", false},
		{"../x", false},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			_, err := ws.ResolveForWrite(tc.path)
			if tc.ok != (err == nil) {
				t.Fatalf("ResolveForWrite(%q) error = %v, want ok=%v", tc.path, err, tc.ok)
			}
			if !tc.ok && strings.Contains(tc.path, "git") && !strings.Contains(err.Error(), ".git directory") {
				t.Fatalf("ResolveForWrite(%q) error %q does not mention .git", tc.path, err)
			}
		})
	}
}

func TestNewWorkspace(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	ws, err := NewWorkspace(link)
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	if ws.Root() != real {
		t.Fatalf("Root() = %q, want the resolved %q", ws.Root(), real)
	}
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{file, filepath.Join(dir, "missing")} {
		if _, err := NewWorkspace(bad); err == nil {
			t.Errorf("NewWorkspace(%q) succeeded", bad)
		}
	}
}

func TestRel(t *testing.T) {
	ws := newTree(t, nil)
	tests := map[string]string{
		ws.Root():                              ".",
		filepath.Join(ws.Root(), "a", "b.go"):  "a/b.go",
		filepath.Join(filepath.Dir(ws.Root())): filepath.Dir(ws.Root()),
	}
	for in, want := range tests {
		if got := ws.Rel(in); got != want {
			t.Errorf("Rel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGitDirGuardIgnoresCase(t *testing.T) {
	ws, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{".GIT/hooks/pre-commit", "sub/.Git/config"} {
		if _, err := ws.ResolveForWrite(p); err == nil {
			t.Errorf("write to %s was allowed", p)
		}
	}
}
