package tools

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestHostileGitignore: a .gitignore that is a FIFO (a read would block
// the walk forever), a device, or a link leaving the workspace is not
// read; the listing tools still answer, without applying it, and say so.
func TestHostileGitignore(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "patterns")
	if err := os.WriteFile(outside, []byte("secret.txt\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := map[string]func(t *testing.T, path string){
		"fifo": func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		},
		"zero":    func(t *testing.T, path string) { link(t, "/dev/zero", path) },
		"tty":     func(t *testing.T, path string) { link(t, "/dev/tty", path) },
		"outside": func(t *testing.T, path string) { link(t, outside, path) },
	}
	for name, plant := range cases {
		for _, where := range []string{".gitignore", "sub/.gitignore"} {
			t.Run(name+" "+where, func(t *testing.T) {
				ws := newTree(t, map[string]string{"sub/secret.txt": "TODO x\n", "main.go": "// TODO\n"})
				plant(t, filepath.Join(ws.Root(), filepath.FromSlash(where)))
				for tool, args := range map[string]map[string]any{
					"list_files": {}, "find_files": {"pattern": "**/*.txt"}, "grep": {"pattern": "TODO"},
				} {
					res := mustCall(t, toolByName(t, ws, Limits{OutputChars: 10000}, tool), args)
					if !strings.Contains(res.Output, "[note: "+where+" not applied: ") {
						t.Errorf("%s output has no note on %s:\n%s", tool, where, res.Output)
					}
					if !strings.Contains(res.Output, "secret.txt") {
						t.Errorf("%s applied the hostile patterns:\n%s", tool, res.Output)
					}
				}
			})
		}
	}
}

func link(t *testing.T, target, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}
